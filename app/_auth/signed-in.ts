import "server-only";
import { redirect } from "next/navigation";
import { serverTrpc } from "@/app/_trpc/server";

/** The signed-in user and their workspaces, for a server page; everyone else goes to sign-in. */
export async function signedInUser() {
  const { userId, api } = await serverTrpc();
  if (!userId) redirect("/signin");
  const [user, memberships] = await Promise.all([api.account.me().catch(() => null), api.workspaces.mine()]);
  if (!user) redirect("/signin");
  return { user, memberships };
}
