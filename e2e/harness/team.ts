import assert from "node:assert/strict";
import { signIn, signUp, ui, type Browser } from "./auth";
import type { RunningServer } from "./server";

export type TeamRole = "admin" | "member" | "viewer" | "annotator";

/** A user invited into `owner`'s workspace with `role`, signed up, signed in and accepted, with a personal API key. */
export async function teammate(
  server: RunningServer,
  owner: Browser,
  email: string,
  role: TeamRole,
): Promise<Browser & { apiKey: string }> {
  const invite = await ui(owner, "POST", "/members", { email, role });
  assert.equal(invite.status, 201, JSON.stringify(invite.body));
  const password = `${role}-password-1`;
  const account = await signUp(server.url, email, password, email.split("@")[0]);
  const browser: Browser = {
    url: server.url,
    cookies: await signIn(server.url, email, password),
    userId: account.user_id,
    workspaceId: owner.workspaceId,
  };
  const accepted = await ui(browser, "POST", "/members/accept", { token: invite.body.token });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  const key = await ui(browser, "POST", "/api-key", { description: `${role} key` }, { "x-tenant-id": owner.workspaceId });
  assert.equal(key.status, 201, JSON.stringify(key.body));
  assert.equal(key.body.role, role);
  return { ...browser, apiKey: key.body.key };
}
