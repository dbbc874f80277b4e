/**
 * Settings → Audit log in Debian's Chromium: the entries of a key made and revoked, a filter by
 * action family, the retention changed in the page, a CSV export downloaded. Screenshots light and dark.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { call } from "../harness/http";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("auditor@example.com");

test("read, filter and export the audit log, and set its retention", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const apiKey = await createKeyInBrowser(page, user);
  const admin = { url: server.url, apiKey };
  const made = await call(admin, "POST", "/api-key", { kind: "service", role: "viewer", description: "nightly export" });
  await call(admin, "DELETE", `/api-key/${made.body.id}`);
  await call(admin, "POST", "/members", { email: "reviewer@example.com", role: "annotator" });
  await call(admin, "POST", "/model-prices", { name: "house", match_pattern: "^house$", prices: { input: 1, output: 2 } });

  await page.goto(`${server.url}/o/${user.workspaceId}/settings?tab=audit`);
  const table = page.getByTestId("audit-log");
  await table.getByText("api_key.revoke").waitFor();
  await table.getByText("invite.create").waitFor();
  await table.getByText("auth.sign_in.success").waitFor();
  assert.match(await table.innerText(), /auditor@example\.com/);
  await page.getByTestId("audit-retention").getByText("365").waitFor();
  await shot("audit-log");
  await shot("audit-log-dark", "dark");

  await page.getByLabel("Filter by action").fill("api_key.*");
  await page.waitForFunction(() => !document.querySelector('[data-testid="audit-log"]')?.textContent?.includes("invite.create"));
  const actions = await table.locator("tbody tr td:nth-child(4)").allInnerTexts();
  assert.ok(actions.length >= 3 && actions.every((a) => a.startsWith("api_key.")), actions.join(", "));

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await (await download).path();
  const csv = await readFile(file!, "utf8");
  assert.match(csv, /^id,at,actor_kind,actor_id,actor_label,ip,action,target_type,target_id,before,after\n/);
  assert.match(csv, /api_key\.revoke/);
  assert.doesNotMatch(csv, new RegExp(made.body.key));

  await page.getByLabel("Retention in days").fill("90");
  await page.getByRole("button", { name: "Set retention" }).click();
  await page.getByTestId("audit-retention").getByText("90").waitFor();
  assert.deepEqual(dialogs, []);
});
