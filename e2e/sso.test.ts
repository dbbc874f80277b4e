/**
 * Single sign-on against a real OpenID Connect provider (`oidc-provider` on loopback), driven in
 * plain HTTP as a browser would (cookies, redirects, the provider's login form), so it runs on the
 * embedded database and on PostgreSQL: just-in-time provisioning, linking by verified e-mail only,
 * roles from groups, refused ID tokens (wrong audience, expired) and SSO_ONLY.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { call } from "./harness/http";
import { anonymous, signIn, signUp, ui, type Browser } from "./harness/auth";
import { ssoSignInOverHttp, startOidcProvider, type OidcProviderHarness } from "./harness/oidc";
import { freePort, startServer, type RunningServer } from "./harness/server";

const SESSION_COOKIE = "next-auth.session-token";

/** A Tracelight server pointed at a fresh provider that has registered its callback URL. */
async function ssoDeployment(env: Record<string, string>, options: { unclaimed?: boolean } = {}) {
  const port = await freePort();
  const oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/api/auth/callback/oidc`] });
  const server = await startServer({ port, env: oidc.env({ OIDC_NAME: "Acme SSO", ...env }), ...options });
  return { oidc, server };
}

/** Signs in through the provider; the signed-in browser, or the refusal's error code. */
async function sso(server: RunningServer, login: string, callbackUrl?: string, alterCallback?: (url: URL) => void) {
  const result = await ssoSignInOverHttp(server.url, login, callbackUrl, alterCallback);
  const error = new URL(result.location).searchParams.get("error");
  if (error || !result.cookies.has(SESSION_COOKIE)) return { error, location: result.location, browser: null };
  const session = await fetch(`${server.url}/api/auth/session`, {
    headers: { cookie: `${SESSION_COOKIE}=${result.cookies.get(SESSION_COOKIE)}` },
  });
  const { user } = (await session.json()) as { user: { id: string; email: string } };
  const workspaces = await ui({ url: server.url, cookies: result.cookies, userId: user.id, workspaceId: "" }, "GET", "/workspaces");
  const browser: Browser = { url: server.url, cookies: result.cookies, userId: user.id, workspaceId: workspaces.body[0]?.id };
  return { error: null, location: result.location, browser, email: user.email };
}

/** A member's role in the key's workspace (the start-up workspace), read with its admin key. */
async function roleOf(server: RunningServer, email: string): Promise<string | undefined> {
  const members = await call(server, "GET", "/members");
  return (members.body as { email: string; role: string }[]).find((m) => m.email === email)?.role;
}

describe("single sign-on (OIDC) over HTTP", () => {
  let oidc: OidcProviderHarness;
  let server: RunningServer;
  before(async () => {
    ({ oidc, server } = await ssoDeployment({
      OIDC_SCOPES: "openid email profile groups",
      OIDC_ROLE_CLAIM: "groups",
      OIDC_ROLE_MAP: "tl-admins=admin,tl-devs=member,annotators=annotator",
    }));
  });
  after(async () => {
    await server?.stop();
    await oidc?.stop();
  });

  test("the first sign-in provisions the user into the default workspace as a viewer, with PKCE and state", async () => {
    const project = `sso-${randomUUID().slice(0, 8)}`;
    const run = { id: randomUUID(), name: "seed", run_type: "chain", inputs: {}, session_name: project };
    assert.equal((await call(server, "POST", "/runs", run)).status, 202);
    oidc.accounts.set("carol", { email: "Carol@Corp.example", email_verified: true, name: "Carol" });
    const challenges = oidc.codeChallenges.length;

    const carol = await sso(server, "carol");
    assert.ok(carol.browser, `signed in (ended at ${carol.location})`);
    assert.equal(carol.location, `${server.url}/`);
    assert.equal(carol.email, "carol@corp.example");
    assert.equal(oidc.codeChallenges.length, challenges + 1, "the authorization request carried a PKCE challenge");
    assert.equal(carol.browser.workspaceId, server.workspaceId, "joined the default (oldest) workspace");
    assert.equal(await roleOf(server, "carol@corp.example"), "viewer");
    const projects = await ui(carol.browser, "GET", "/sessions");
    assert.equal(projects.status, 200);
    assert.ok(
      (projects.body as { name: string }[]).some((p) => p.name === project),
      "sees the workspace's projects",
    );
    assert.equal((await ui(carol.browser, "POST", "/sessions", { name: "nope" })).status, 403, "a viewer cannot write");

    const again = await sso(server, "carol");
    assert.equal(again.browser?.userId, carol.browser.userId, "the same account the next time");
    const password = await signIn(server.url, "carol@corp.example", "any-password-1");
    assert.ok(![...password.keys()].includes(SESSION_COOKIE), "an account single sign-on made has no password");
  });

  test("a verified e-mail links to the existing password account; the provider's subject keeps it linked", async () => {
    const dora = await signUp(server.url, "dora@corp.example", "dora-password-1", "Dora");
    oidc.accounts.set("dora", { email: "DORA@corp.example", email_verified: true });
    const signedIn = await sso(server, "dora");
    assert.equal(signedIn.browser?.userId, dora.user_id, "the password account, not a new one");
    const workspaces = await ui(signedIn.browser!, "GET", "/workspaces");
    assert.deepEqual(new Set(workspaces.body.map((w: { id: string }) => w.id)), new Set([dora.workspace_id, server.workspaceId]));
    assert.ok((await signIn(server.url, "dora@corp.example", "dora-password-1")).has(SESSION_COOKIE), "the password still works");

    oidc.accounts.set("dora", { email: "dora.renamed@corp.example", email_verified: false });
    assert.equal((await sso(server, "dora")).browser?.userId, dora.user_id, "found by issuer and subject, whatever the e-mail now");
  });

  test("an unverified e-mail is refused and never linked to the account that has it", async () => {
    const erin = await signUp(server.url, "erin@corp.example", "erin-password-1", "Erin");
    oidc.accounts.set("mallory", { email: "erin@corp.example", email_verified: false });
    const refused = await sso(server, "mallory");
    assert.equal(refused.browser, null);
    assert.equal(refused.error, "SsoEmailUnverified");
    assert.equal(new URL(refused.location).pathname, "/signin");
    const page = await (await fetch(refused.location)).text();
    assert.match(page, /did not confirm that this e-mail address is yours/);

    oidc.accounts.set("nobody", { email: "new-unverified@corp.example" });
    assert.equal((await sso(server, "nobody")).error, "SsoEmailUnverified", "no verified flag: no new account either");
    assert.equal(await roleOf(server, "new-unverified@corp.example"), undefined);

    // Nothing was linked: once the provider verifies the address, the right account signs in.
    oidc.accounts.set("mallory", { email: "erin@corp.example", email_verified: true });
    assert.equal((await sso(server, "mallory")).browser?.userId, erin.user_id);
  });

  test("groups map to roles, updated at every sign-in for memberships single sign-on made", async () => {
    oidc.accounts.set("frank", { email: "frank@corp.example", email_verified: true, groups: ["tl-devs", "everyone"] });
    const frank = await sso(server, "frank");
    assert.ok(frank.browser);
    assert.equal(await roleOf(server, "frank@corp.example"), "member");
    assert.equal((await ui(frank.browser, "POST", "/sessions", { name: `frank-${randomUUID().slice(0, 6)}` })).status, 200);

    oidc.accounts.set("frank", { email: "frank@corp.example", email_verified: true, groups: ["tl-devs", "tl-admins"] });
    await sso(server, "frank");
    assert.equal(await roleOf(server, "frank@corp.example"), "admin", "the strongest group wins");

    oidc.accounts.set("frank", { email: "frank@corp.example", email_verified: true, groups: [] });
    await sso(server, "frank");
    assert.equal(await roleOf(server, "frank@corp.example"), "viewer", "no group: the default role");
  });

  test("ID tokens for another client or past their expiry are refused; the same token re-signed unchanged is accepted", async () => {
    oidc.accounts.set("gus", { email: "gus@corp.example", email_verified: true });
    try {
      oidc.tamper = (claims) => ({ ...claims, aud: oidc.otherClientId, azp: oidc.otherClientId });
      const wrongAudience = await sso(server, "gus");
      assert.equal(wrongAudience.browser, null);
      assert.equal(wrongAudience.error, "OAuthCallback");
      assert.match(server.output(), /aud mismatch, expected tracelight, got: another-app/, "refused by the audience check");
      assert.ok(!server.output().includes(oidc.clientSecret), "the client secret is never logged");

      const now = Math.floor(Date.now() / 1000);
      oidc.tamper = (claims) => ({ ...claims, iat: now - 7200, exp: now - 3600 });
      const expired = await sso(server, "gus");
      assert.equal(expired.browser, null);
      assert.equal(expired.error, "OAuthCallback");
      assert.match(server.output(), /JWT expired/, "refused by the expiry check");
      assert.equal(await roleOf(server, "gus@corp.example"), undefined, "no account was provisioned");

      oidc.tamper = (claims) => claims;
      assert.ok((await sso(server, "gus")).browser, "the harness's re-signing alone is not what is refused");
    } finally {
      oidc.tamper = null;
    }
  });

  test("an answer whose state is not the one this browser sent is refused", async () => {
    oidc.accounts.set("hal", { email: "hal@corp.example", email_verified: true });
    const forged = await sso(server, "hal", undefined, (url) => url.searchParams.set("state", "forged-state"));
    assert.equal(forged.browser, null);
    assert.equal(forged.error, "OAuthCallback");
    assert.match(server.output(), /state mismatch|checks\.state/i);
  });
});

describe("SSO_ONLY", () => {
  let oidc: OidcProviderHarness;
  let server: RunningServer;
  before(async () => {
    ({ oidc, server } = await ssoDeployment({ SSO_ONLY: "true" }, { unclaimed: true }));
  });
  after(async () => {
    await server?.stop();
    await oidc?.stop();
  });

  test("password sign-up and sign-in are refused and point to single sign-on", async () => {
    const signup = await anonymous(server.url, "POST", "/auth/signup", { email: "pat@corp.example", password: "pat-password-1" });
    assert.equal(signup.status, 403);
    assert.match(signup.body.detail, /Sign-up with a password is turned off on this deployment: sign in with Acme SSO/);

    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const password = await fetch(`${server.url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, email: "pat@corp.example", password: "pat-password-1", json: "true" }),
    });
    const answer = (await password.json()) as { url: string };
    assert.equal(new URL(answer.url).searchParams.get("error"), "SsoOnly");
    assert.ok(!password.headers.getSetCookie().some((c) => c.startsWith(SESSION_COOKIE)));

    const page = await (await fetch(`${server.url}/signin`)).text();
    assert.match(page, /Sign in with Acme SSO/);
    assert.doesNotMatch(page, /name="password"/, "no password form");
    const signupPage = await (await fetch(`${server.url}/signup`)).text();
    assert.match(signupPage, /Sign-up with a password is turned off/);
  });

  test("the first account claims the start-up workspace as admin; an invitation lands on single sign-on", async () => {
    oidc.accounts.set("owner", { email: "owner@corp.example", email_verified: true });
    const owner = await sso(server, "owner");
    assert.ok(owner.browser);
    assert.equal(await roleOf(server, "owner@corp.example"), "admin");

    const team = await ui(owner.browser, "POST", "/workspaces", { name: "Research" });
    assert.equal(team.status, 201);
    const inTeam = { "x-tenant-id": team.body.id };
    const invite = await ui(owner.browser, "POST", "/members", { email: "hana@corp.example", role: "member" }, inTeam);
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    const landing = `/signin?${new URLSearchParams({ invite: invite.body.token, sso: "1" })}`;

    oidc.accounts.set("hana", { email: "hana@corp.example", email_verified: true });
    const hana = await sso(server, "hana", `${server.url}${landing}`);
    assert.ok(hana.browser);
    assert.equal(hana.location, `${server.url}${landing}`, "back on the page that accepts the invitation");
    const accepted = await ui(hana.browser, "POST", "/members/accept", { token: invite.body.token });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.deepEqual(accepted.body, { workspace_id: team.body.id, role: "member" });
  });
});
