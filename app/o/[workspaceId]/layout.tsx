import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { orNotFound, serverTrpc } from "@/app/_trpc/server";
import { Shell } from "./_components/shell";

export const dynamic = "force-dynamic";

/** Every workspace page: signed-in members only (anyone else's workspace is a 404), inside the shell. */
export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { userId, api } = await serverTrpc();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(`/o/${workspaceId}/projects`)}`);
  const [, workspaces, user] = await Promise.all([
    orNotFound(api.workspaces.current({ workspaceId })),
    api.workspaces.mine(),
    api.account.me(),
  ]);
  return (
    <Shell workspaceId={workspaceId} workspaces={workspaces} user={{ email: user.email, name: user.name }}>
      {children}
    </Shell>
  );
}
