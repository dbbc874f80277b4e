import { notFound, redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import type { ReactNode } from "react";
import { authOptions } from "@/server/auth/next-auth";
import { membership, membershipsOf } from "@/server/auth/users";
import { getSql } from "@/server/db/client";
import { Shell } from "./_components/shell";

export const dynamic = "force-dynamic";

/** Every workspace page: signed-in members only (anyone else's workspace is a 404), inside the shell. */
export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const session = await getServerSession(authOptions);
  const userId = session?.user?.id;
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(`/o/${workspaceId}/projects`)}`);
  const db = await getSql();
  const [role, workspaces] = await Promise.all([membership(db, userId, workspaceId), membershipsOf(db, userId)]);
  if (!role) notFound();
  return (
    <Shell
      workspaceId={workspaceId}
      workspaces={workspaces}
      user={{ email: session?.user?.email ?? "", name: session?.user?.name ?? null }}
    >
      {children}
    </Shell>
  );
}
