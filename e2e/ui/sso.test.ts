/**
 * Single sign-on in Debian's Chromium against a real OpenID Connect provider on loopback: the
 * sign-in page's button, the provider's login page, landing in the workspace with its projects; an
 * unverified e-mail refused with its message; and an SSO_ONLY deployment, where the invite link
 * goes through the provider and the invitation is accepted on the way back.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { call } from "../harness/http";
import { startOidcProvider, type OidcProviderHarness } from "../harness/oidc";
import { freePort, startServer, type RunningServer } from "../harness/server";
import { launchBrowser } from "./harness";
import { noChromium as skip } from "./suite";

const SHOTS = path.join(process.cwd(), "e2e", "screenshots");
const WORKSPACE_PAGE = /\/o\/([0-9a-f-]{36})\/projects/;

async function ssoDeployment(env: Record<string, string>, options: { unclaimed?: boolean } = {}) {
  const port = await freePort();
  const oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/api/auth/callback/oidc`] });
  const server = await startServer({ port, env: oidc.env({ OIDC_NAME: "Acme SSO", ...env }), ...options });
  return { oidc, server };
}

async function shot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SHOTS, `b-${name}.png`) });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SHOTS, `b-${name}-dark.png`) });
  await page.emulateMedia({ colorScheme: "light" });
}

/** From a page showing the SSO button: through the provider's login page, back to Tracelight. */
async function signInAtProvider(page: Page, oidc: OidcProviderHarness, login: string) {
  await page.getByRole("button", { name: "Sign in with Acme SSO" }).click();
  await page.waitForURL((url) => url.href.startsWith(oidc.issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  await page.locator('button[type="submit"]').click();
}

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => browser?.close());

describe("single sign-on in Chromium", () => {
  let oidc: OidcProviderHarness;
  let server: RunningServer;
  before(async () => {
    if (skip) return;
    ({ oidc, server } = await ssoDeployment({
      OIDC_SCOPES: "openid email profile groups",
      OIDC_ROLE_CLAIM: "groups",
      OIDC_ROLE_MAP: "tl-devs=member",
    }));
  });
  after(async () => {
    await server?.stop();
    await oidc?.stop();
  });

  test("the button signs in through the provider and lands in the workspace, seeing its projects", { skip }, async () => {
    const run = { id: crypto.randomUUID(), name: "seed", run_type: "chain", inputs: {}, session_name: "checkout-assistant" };
    assert.equal((await call(server, "POST", "/runs", run)).status, 202);
    oidc.accounts.set("ivy", { email: "ivy@corp.example", email_verified: true, name: "Ivy", groups: ["tl-devs"] });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/signin`);
    await page.getByRole("button", { name: "Sign in with Acme SSO" }).waitFor();
    assert.equal(await page.locator('input[name="password"]').count(), 1, "passwords still work beside SSO");
    await shot(page, "sso-signin");

    await signInAtProvider(page, oidc, "ivy");
    await page.waitForURL(WORKSPACE_PAGE);
    assert.equal(WORKSPACE_PAGE.exec(page.url())![1], server.workspaceId);
    await page.getByText("checkout-assistant").first().waitFor();
    const session = await page.evaluate(async () => (await fetch("/api/auth/session")).json());
    assert.equal(session.user.email, "ivy@corp.example");
    const members = await call(server, "GET", "/members");
    assert.equal(members.body.find((m: { email: string }) => m.email === "ivy@corp.example")?.role, "member");
    await context.close();
  });

  test("an unverified e-mail is refused on the sign-in page and not linked to the password account", { skip }, async () => {
    const signup = await call({ url: server.url, apiKey: "" }, "POST", "/auth/signup", {
      email: "jo@corp.example",
      password: "jo-password-1",
    });
    assert.equal(signup.status, 201);
    oidc.accounts.set("not-jo", { email: "jo@corp.example", email_verified: false });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/signin`);
    await signInAtProvider(page, oidc, "not-jo");
    await page.waitForURL(/\/signin\?error=SsoEmailUnverified/);
    assert.match(await page.locator("main [role=alert]").innerText(), /did not confirm that this e-mail address is yours/);
    await shot(page, "sso-refused");
    const session = await page.evaluate(async () => (await fetch("/api/auth/session")).json());
    assert.deepEqual(session, {}, "not signed in");
    await context.close();
  });
});

describe("SSO_ONLY in Chromium", () => {
  let oidc: OidcProviderHarness;
  let server: RunningServer;
  before(async () => {
    if (skip) return;
    ({ oidc, server } = await ssoDeployment({ SSO_ONLY: "true" }, { unclaimed: true }));
  });
  after(async () => {
    await server?.stop();
    await oidc?.stop();
  });

  test("only the provider's button; an invite link signs in through it and joins the workspace", { skip }, async () => {
    oidc.accounts.set("kim", { email: "kim@corp.example", email_verified: true });
    oidc.accounts.set("lee", { email: "lee@corp.example", email_verified: true });
    const owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await owner.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/signin`);
    assert.equal(await page.locator('input[name="password"]').count(), 0, "no password form");
    await shot(page, "sso-only-signin");
    await signInAtProvider(page, oidc, "kim");
    await page.waitForURL(WORKSPACE_PAGE);
    const invite = await page.evaluate(async () => {
      const { user } = await (await fetch("/api/auth/session")).json();
      const headers = { "content-type": "application/json", "x-user-id": user.id };
      const team = await (
        await fetch("/api/v1/workspaces", { method: "POST", headers, body: JSON.stringify({ name: "Research" }) })
      ).json();
      const r = await fetch("/api/v1/members", {
        method: "POST",
        headers: { ...headers, "x-tenant-id": team.id },
        body: JSON.stringify({ email: "lee@corp.example", role: "member" }),
      });
      return { team: team.id as string, ...((await r.json()) as { accept_path: string }) };
    });
    await owner.close();

    const invited = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const lee = await invited.newPage();
    lee.setDefaultTimeout(30_000);
    await lee.goto(`${server.url}${invite.accept_path}`);
    await lee.getByText("sign in with Acme SSO, as the invited e-mail address, to join it").waitFor();
    await shot(lee, "sso-only-invite");
    await signInAtProvider(lee, oidc, "lee");
    await lee.waitForURL(new RegExp(`/o/${invite.team}/projects`));
    await invited.close();
  });
});
