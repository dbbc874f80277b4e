import { CreateWorkspace } from "../_auth/create-workspace";
import { signedInUser } from "../_auth/signed-in";

export const dynamic = "force-dynamic";

/** A signed-in user creates another workspace (from the workspace switcher). */
export default async function NewWorkspace() {
  const { user, memberships } = await signedInUser();
  return <CreateWorkspace email={user.email} hasWorkspaces={memberships.length > 0} />;
}
