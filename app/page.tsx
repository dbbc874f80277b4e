import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/server/auth/next-auth";
import { getUser, membershipsOf } from "@/server/auth/users";
import { getSql } from "@/server/db/client";
import { CreateWorkspace } from "./_auth/create-workspace";

export const dynamic = "force-dynamic";

/** Signed-in users go to their first workspace's projects; everybody else to the sign-in page. */
export default async function Home() {
  const session = await getServerSession(authOptions);
  const userId = session?.user?.id;
  if (!userId) redirect("/signin");
  const db = await getSql();
  const user = await getUser(db, userId);
  if (!user) redirect("/signin");
  const [first] = await membershipsOf(db, userId);
  if (first) redirect(`/o/${first.workspaceId}/projects`);
  return <CreateWorkspace userId={user.id} email={user.email} />;
}
