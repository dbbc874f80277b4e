/**
 * The sign-up and sign-in pages in Debian's Chromium: sign up (a workspace is created), the home
 * page's redirects, a wrong password, signing out, and an invite link accepted by signing up.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startServer, type RunningServer } from "../harness/server";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;
const WORKSPACE_PAGE = /\/o\/([0-9a-f-]{36})\/projects/;

let server: RunningServer;
let browser: Browser;

before(async () => {
  if (skip) return;
  server = await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function fillAndSubmit(page: Page, fields: Record<string, string>) {
  for (const [name, value] of Object.entries(fields)) await page.locator(`input[name="${name}"]`).fill(value);
  await page.locator('button[type="submit"]').click();
}

const session = (page: Page) => page.evaluate(async () => (await fetch("/api/auth/session")).json());

test("sign up on the page, land in the new workspace; home redirects; sign out; wrong password; sign in", { skip }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${server.url}/`);
  await page.waitForURL(/\/signin$/);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.waitForURL(/\/signup$/);
  await fillAndSubmit(page, { name: "Ada", email: "ada@example.com", password: "ada-password-1" });
  await page.waitForURL(WORKSPACE_PAGE, { timeout: 30_000 });
  const workspaceId = WORKSPACE_PAGE.exec(page.url())![1];
  assert.equal((await session(page)).user.email, "ada@example.com");

  await page.goto(`${server.url}/`);
  await page.waitForURL(WORKSPACE_PAGE);
  assert.equal(WORKSPACE_PAGE.exec(page.url())![1], workspaceId);

  // Leave the app first: an in-flight /api/auth/session answer would set the session cookie again.
  await page.goto("about:blank");
  await context.clearCookies();
  await page.goto(`${server.url}/`);
  await page.waitForURL(/\/signin$/);
  await fillAndSubmit(page, { email: "ada@example.com", password: "not-the-password" });
  await page.locator("main [role=alert]").waitFor();
  assert.match(await page.locator("main [role=alert]").innerText(), /Wrong e-mail or password/);
  await fillAndSubmit(page, { email: "ADA@example.com", password: "ada-password-1" });
  await page.waitForURL(WORKSPACE_PAGE, { timeout: 30_000 });

  await page.getByTestId("workspace-switcher").click();
  await page.getByTestId("new-workspace").click();
  await page.waitForURL(/\/new-workspace$/);
  await page.locator('input[name="name"]').fill("Ada's second workspace");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => WORKSPACE_PAGE.test(url.toString()) && !url.toString().includes(workspaceId), { timeout: 30_000 });
  await page.getByTestId("workspace-switcher").click();
  assert.equal(await page.locator('[role="listbox"] [role="option"]').count(), 2, "the switcher lists both workspaces");

  await page.goto(`${server.url}/signup`);
  await fillAndSubmit(page, { name: "Again", email: "ada@example.com", password: "whatever-123" });
  await page.locator("main [role=alert]").waitFor();
  assert.match(await page.locator("main [role=alert]").innerText(), /already exists/);
  await context.close();
});

test("an invite link: the invitee signs up on it and lands in the inviting workspace", { skip }, async () => {
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  adminPage.setDefaultTimeout(60_000);
  await adminPage.goto(`${server.url}/signin`);
  await fillAndSubmit(adminPage, { email: "ada@example.com", password: "ada-password-1" });
  await adminPage.waitForURL(WORKSPACE_PAGE, { timeout: 30_000 });
  const adaWorkspace = WORKSPACE_PAGE.exec(adminPage.url())![1];
  const userId = (await session(adminPage)).user.id as string;
  const invite = await adminPage.evaluate(async (id) => {
    const r = await fetch("/api/v1/members", {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-id": id },
      body: JSON.stringify({ email: "bea@example.com", role: "member" }),
    });
    return { status: r.status, body: await r.json() };
  }, userId);
  assert.equal(invite.status, 201, JSON.stringify(invite.body));

  const invitee = await browser.newContext();
  const page = await invitee.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${server.url}${invite.body.accept_path}`);
  assert.match(await page.locator("main").innerText(), /invited/);
  await fillAndSubmit(page, { name: "Bea", email: "bea@example.com", password: "bea-password-1" });
  await page.waitForURL(WORKSPACE_PAGE, { timeout: 30_000 });
  assert.equal(WORKSPACE_PAGE.exec(page.url())![1], adaWorkspace);

  const members = await adminPage.evaluate(async (id) => (await fetch("/api/v1/members", { headers: { "x-user-id": id } })).json(), userId);
  assert.deepEqual(
    members.map((m: { email: string; role: string }) => [m.email, m.role]),
    [
      ["ada@example.com", "admin"],
      ["bea@example.com", "member"],
    ],
  );
  await admin.close();
  await invitee.close();
});
