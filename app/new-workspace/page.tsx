import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/server/auth/next-auth";
import { getUser, membershipsOf } from "@/server/auth/users";
import { getSql } from "@/server/db/client";
import { CreateWorkspace } from "../_auth/create-workspace";

export const dynamic = "force-dynamic";

/** A signed-in user creates another workspace (from the workspace switcher). */
export default async function NewWorkspace() {
  const session = await getServerSession(authOptions);
  const userId = session?.user?.id;
  if (!userId) redirect("/signin");
  const db = await getSql();
  const user = await getUser(db, userId);
  if (!user) redirect("/signin");
  const memberships = await membershipsOf(db, userId);
  return <CreateWorkspace userId={user.id} email={user.email} hasWorkspaces={memberships.length > 0} />;
}
