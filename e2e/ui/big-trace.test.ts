/**
 * A trace of 10,000 runs in Debian's Chromium: the page reads the trace's outline, renders only the
 * rows in view, reads a run's inputs and outputs when it is selected, and keeps the keys; beside it
 * a small trace from the real SDK. Screenshots of both in light and dark go to e2e/screenshots/.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { call } from "../harness/http";
import { createKeyInBrowser, seedLargeTrace, seedTraces } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("big-trace@example.com");
const skip = noChromium;
let apiKey = "";

/** The trace page's address, under the trace's project. */
async function traceUrl(project: string, traceId: string): Promise<string> {
  const { server, user } = suite;
  const projects = await call({ ...server, apiKey }, "GET", `/api/v1/sessions?name=${project}`);
  return `${server.url}/o/${user.workspaceId}/projects/${projects.body[0].id}/traces/${traceId}`;
}

test("a small trace in light and dark", { skip }, async () => {
  const { server, page, user, shot } = suite;
  apiKey = await createKeyInBrowser(page, user);
  const { traceId } = await seedTraces(server, apiKey, "support-bot");
  await page.goto(await traceUrl("support-bot", traceId));
  await page.getByTestId("run-detail").waitFor();
  assert.ok((await page.getByTestId("trace-row").count()) >= 4);
  await shot("trace-small");
  await shot("trace-small-dark", "dark");
});

test("a trace of 10,000 runs opens whole, renders the rows in view and reads a run when it is selected", { skip }, async () => {
  const { server, page, shot } = suite;
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const traceId = await seedLargeTrace(server, apiKey, "big-trace", 10_000);
  await page.goto(await traceUrl("big-trace", traceId));
  await page
    .getByTestId("run-detail")
    .waitFor({ timeout: 60_000 })
    .catch(async (e) => {
      await shot("trace-10k-failed");
      throw e;
    });
  assert.match((await page.getByTestId("trace-title").locator("xpath=../..").textContent()) ?? "", /Runs\s*10,000/);
  const rendered = await page.getByTestId("trace-row").count();
  assert.ok(rendered > 10 && rendered < 200, `only the rows in view are rendered (${rendered})`);

  // The last run: End moves there, the tree scrolls to it and its inputs are read.
  await page.keyboard.press("End");
  const last = page.locator('[data-testid="trace-row"][aria-selected="true"]');
  await last.waitFor();
  assert.match((await last.textContent()) ?? "", /ChatOpenAI|lookup/);
  await page.getByTestId("run-detail").filter({ hasText: "9999" }).waitFor();
  assert.match(page.url(), /[?&]run=[0-9a-f-]{36}/, "the selection is in the address");

  // Next error wraps to the first failing run (every 997th).
  await page.getByTestId("next-error").click();
  await page.locator('[data-testid="trace-row"][aria-selected="true"]').filter({ hasText: "error" }).waitFor();
  await page.getByTestId("run-detail").filter({ hasText: "RateLimitError" }).waitFor();
  await shot("trace-10k");
  await shot("trace-10k-dark", "dark");
  assert.deepEqual(errors, []);
});
