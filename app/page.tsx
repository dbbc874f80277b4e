import { redirect } from "next/navigation";
import { CreateWorkspace } from "./_auth/create-workspace";
import { signedInUser } from "./_auth/signed-in";

export const dynamic = "force-dynamic";

/** Signed-in users go to their first workspace's projects; everybody else to the sign-in page. */
export default async function Home() {
  const {
    user,
    memberships: [first],
  } = await signedInUser();
  if (first) redirect(`/o/${first.workspaceId}/projects`);
  return <CreateWorkspace email={user.email} />;
}
