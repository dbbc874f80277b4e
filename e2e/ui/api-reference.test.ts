/**
 * /docs/api renders the OpenAPI document in a real browser under the page CSP, light and dark,
 * with no CSP violation and no request to another origin.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { startServer, type RunningServer } from "../harness/server";
import { desktopPage, launchBrowser } from "./harness";

const skip = existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium") ? false : "no Chromium installed";
let server: RunningServer;
let browser: Browser;

before(async () => {
  if (skip) return;
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the API reference renders every tag, in both themes, without a CSP violation", { skip }, async () => {
  mkdirSync("e2e/screenshots", { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    const dialogs: string[] = [];
    const page = await desktopPage(browser, dialogs);
    const violations: string[] = [];
    const elsewhere: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    page.on("request", (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) elsewhere.push(r.url());
    });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${server.url}/docs/api`);
    await page.getByRole("heading", { name: "Tracelight API" }).first().waitFor();
    for (const tag of ["Runs", "Datasets", "Prompts", "Langfuse"]) await page.getByText(tag, { exact: true }).first().waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `e2e/screenshots/api-reference-${scheme}.png` });
    assert.deepEqual(violations, [], "no CSP violation");
    assert.deepEqual(elsewhere, [], "no request leaves this origin");
    assert.deepEqual(dialogs, []);
    await page.close();
  }
});
