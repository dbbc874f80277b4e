import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/server/auth/next-auth";
import { getUser, membershipsOf } from "@/server/auth/users";
import { getSql } from "@/server/db/client";

/** The signed-in user and their workspaces, for a server page; everyone else goes to sign-in. */
export async function signedInUser() {
  const session = await getServerSession(authOptions);
  const userId = session?.user?.id;
  if (!userId) redirect("/signin");
  const db = await getSql();
  const user = await getUser(db, userId);
  if (!user) redirect("/signin");
  return { user, memberships: await membershipsOf(db, userId) };
}
