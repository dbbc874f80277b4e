/**
 * Hardening in the browser (issue 12), in Debian's Chromium. HTML and SVG attachments carrying
 * script are opened from a signed-in session and nothing in them runs, while the pages' CSP lets
 * the app itself run. Runs refused at ingest are listed, with the reason, on their project's page.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { call } from "../harness/http";
import { multipartBody } from "../harness/multipart";
import { startServer, type RunningServer } from "../harness/server";
import { launchBrowser, signUpInBrowser } from "./harness";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;

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

test("HTML and SVG attachments open without running their script; the app runs under its CSP", { skip }, async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const seen: string[] = [];
  page.on("console", (m) => seen.push(m.text()));
  page.on("dialog", (d) => {
    seen.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await signUpInBrowser(page, server, `files-${randomUUID()}@example.com`);
  assert.ok(!seen.some((t) => /Content Security Policy/i.test(t)), `the app's own scripts are allowed: ${seen.join("\n")}`);

  const id = randomUUID();
  const script = "<script>console.log('PWNED ' + document.cookie); alert('PWNED')</script>";
  const { body, contentType } = multipartBody([
    {
      name: `post.${id}`,
      json: {
        id,
        trace_id: id,
        dotted_order: `20260101T000000000000Z${id}`,
        name: "files",
        run_type: "chain",
        start_time: new Date().toISOString(),
        inputs: {},
      },
    },
    { name: `attachment.${id}.page`, bytes: Buffer.from(`<html><body>${script}</body></html>`), contentType: "text/html" },
    {
      name: `attachment.${id}.logo`,
      bytes: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg">${script.replace(/<script>/, "<script><![CDATA[").replace("</script>", "]]></script>")}</svg>`,
      ),
      contentType: "image/svg+xml",
    },
  ]);
  assert.equal((await call(server, "POST", "/runs/multipart", body, { "content-type": contentType })).status, 202);
  const links = (await call(server, "GET", `/runs/${id}`)).body.s3_urls as Record<string, { presigned_url: string }>;
  for (const name of ["attachment.page", "attachment.logo"]) {
    const url = links[name]!.presigned_url;
    const download = page.waitForEvent("download").then(
      (d) => d.suggestedFilename(),
      () => null,
    );
    await page.goto(url).catch(() => undefined); // a download, not a page: navigation is aborted
    assert.notEqual(await download, null, `${name} is downloaded, not shown`);
    // Even framed into the app's own origin, the sandbox keeps its script from running.
    await page.goto(`${server.url}/signin`);
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.src = src;
      document.body.append(frame);
    }, url);
    await page.waitForTimeout(1_000);
  }
  assert.ok(!seen.some((t) => t.includes("PWNED")), `no attachment script ran: ${seen.join("\n")}`);
  await context.close();
});

test("runs refused at ingest show on their project's page with the reason", { skip }, async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const user = await signUpInBrowser(page, server, `refused-${randomUUID()}@example.com`);
  const key = await page.evaluate(async (userId) => {
    const r = await fetch("/api/v1/api-key", {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-id": userId },
      body: JSON.stringify({ kind: "service", description: "ui" }),
    });
    return ((await r.json()) as { key: string }).key;
  }, user.userId);
  const run = (extra: Record<string, unknown>) => {
    const id = randomUUID();
    return {
      id,
      trace_id: id,
      dotted_order: `20260101T000000000000Z${id}`,
      name: "answer",
      run_type: "llm",
      session_name: "refusals",
      start_time: new Date().toISOString(),
      inputs: {},
      ...extra,
    };
  };
  const bad = run({ outputs: { usage_metadata: { input_tokens: -3, output_tokens: 1, total_tokens: 1 } } });
  const r = await call({ url: server.url, apiKey: key }, "POST", "/runs/batch", { post: [run({}), bad] });
  assert.equal(r.status, 207);
  const projects = await call({ url: server.url, apiKey: key }, "GET", "/sessions?name=refusals");
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${projects.body[0].id}`);
  const banner = page.getByTestId("ingest-errors");
  await banner.getByRole("button").click();
  await banner.getByText(bad.id).waitFor();
  assert.match(await banner.innerText(), /1 run was refused at ingest[\s\S]*Token counts must be whole numbers/);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(300); // the buttons' colour transition
    await page.screenshot({ path: `e2e/screenshots/ingest-errors-${scheme}.png` });
  }
  await context.close();
});
