/**
 * Feedback and datasets from the run view in Debian's Chromium, over the trace of
 * run-detail-trace.ts: feedback left in the run view and read back through the REST API, feedback
 * keys following the workspace's configs (a reviewer edits and deletes their own), and the run added
 * to a new dataset, then browsed. Screenshots go to e2e/screenshots/; the rest of the run view is in
 * run-detail.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import type { RunningServer } from "../harness/server";
import { createKeyInBrowser } from "./harness";
import { openRun, PROJECT, SCRIPT, sendTrace, type TraceIds } from "./run-detail-trace";
import { noChromium, restCall, signedInSuite } from "./suite";

const suite = signedInSuite("grace@example.com");
const skip = noChromium;
let server: RunningServer;
let page: Page;
let dialogs: string[] = [];
let workspaceId = "";
let apiKey = "";
let ids: TraceIds;

const shot = (name: string) => suite.shot(name);
const api = (method: string, route: string, body?: unknown) => restCall(server.url, apiKey, method, route, body);

test("setup: a key, the trace sent with the langsmith client, its trace view open", { skip }, async () => {
  ({ server, page, dialogs } = suite);
  workspaceId = suite.user.workspaceId;
  apiKey = await createKeyInBrowser(page, suite.user);
  ids = await sendTrace(server.url, apiKey);
  await page.goto(`${server.url}/o/${workspaceId}/projects`);
  await page.locator('[data-testid="projects-table"] a', { hasText: PROJECT }).click();
  await page.locator('[data-testid="run-row"]', { hasText: "assistant-pipeline" }).first().click();
  await page.getByTestId("open-trace").click();
  await page.getByTestId("trace-tree").waitFor();
});

test("feedback left in the run view is listed there and read back through the REST API", { skip }, async () => {
  await openRun(page, "openai-chat");
  await page.getByRole("tab", { name: /Feedback/ }).click();
  const panel = page.getByTestId("feedback-panel");
  await panel.locator('input[name="key"]').fill("helpfulness");
  await panel.locator('input[name="score"]').fill("0.9");
  await panel.locator('input[name="value"]').fill("good");
  await panel.locator('textarea[name="comment"]').fill(`Right answer ${SCRIPT}`);
  await panel.locator('textarea[name="correction"]').fill('{"answer": "18C"}');
  // A busy machine can take long to answer; the answer itself says whether the feedback was stored.
  const created = page.waitForResponse((r) => r.url().includes("feedback.create"), { timeout: 60_000 });
  await panel.getByRole("button", { name: "Add feedback" }).click();
  const answer = await created;
  assert.equal(answer.status(), 200, "feedback.create answered");
  await panel.getByTestId("feedback-item").filter({ hasText: "helpfulness" }).waitFor({ timeout: 60_000 });
  assert.ok(((await panel.textContent()) ?? "").includes(`Right answer ${SCRIPT}`));
  await shot("run-feedback");
  const listed = await api("GET", `/feedback?run=${ids.openai}`);
  assert.equal(listed.status, 200);
  const [fb] = listed.body as {
    key: string;
    score: number;
    value: unknown;
    comment: string;
    correction: unknown;
    feedback_source: { type: string };
  }[];
  assert.equal(fb.key, "helpfulness");
  assert.equal(fb.score, 0.9);
  assert.equal(fb.value, "good");
  assert.equal(fb.comment, `Right answer ${SCRIPT}`);
  assert.deepEqual(fb.correction, { answer: "18C" });
  assert.equal(fb.feedback_source.type, "app");
  assert.equal(await panel.getByTestId("feedback-author").first().textContent(), "Ada Lovelace", 'the reviewer is named, not "app"');
  assert.deepEqual(dialogs, []);
});

test("feedback keys follow the workspace's configs; a reviewer edits and deletes their own", { skip }, async () => {
  assert.equal(
    (await api("POST", "/feedback-configs", { feedback_key: "quality", feedback_config: { type: "continuous", min: 0, max: 1 } })).status,
    200,
  );
  assert.equal(
    (
      await api("POST", "/feedback-configs", {
        feedback_key: "tone",
        feedback_config: {
          type: "categorical",
          categories: [
            { value: "friendly", label: "Friendly" },
            { value: "curt", label: "Curt" },
          ],
        },
      })
    ).status,
    200,
  );
  await page.reload();
  await page.getByRole("tab", { name: /Feedback/ }).click();
  const panel = page.getByTestId("feedback-panel");
  const form = panel.getByRole("form", { name: "Add feedback" });
  await form.getByTestId("feedback-keys").getByRole("button", { name: "quality" }).click();
  await form.getByLabel("Score slider").waitFor(); // the workspace's configs have loaded
  await form.locator('input[name="score"]').fill("1.5");
  assert.equal(await panel.getByTestId("score-problem").textContent(), "The score must be at most 1.");
  assert.equal(await form.getByRole("button", { name: "Add feedback" }).isDisabled(), true);
  await form.getByLabel("Score slider").fill("0.7");
  assert.equal(await form.locator('input[name="score"]').inputValue(), "0.7");
  await form.getByRole("button", { name: "Add feedback" }).click();
  await panel.getByTestId("feedback-item").filter({ hasText: "quality" }).waitFor();

  await form.getByTestId("feedback-keys").getByRole("button", { name: "tone" }).click();
  await form.getByTestId("feedback-categories").getByRole("button", { name: "Curt" }).click();
  await form.getByRole("button", { name: "Add feedback" }).click();
  const tone = panel.getByTestId("feedback-item").filter({ hasText: "tone" });
  await tone.filter({ hasText: "curt" }).waitFor();
  await tone.getByRole("button", { name: "Edit" }).click();
  const edit = panel.getByRole("form", { name: "Edit feedback" });
  await edit.getByTestId("feedback-categories").getByRole("button", { name: "Friendly" }).click();
  await edit.locator('textarea[name="comment"]').fill("warm after all");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await tone.filter({ hasText: "warm after all" }).waitFor();
  assert.ok(((await tone.textContent()) ?? "").includes("friendly"));
  await shot("run-feedback-configs");
  const listed = await api("GET", `/feedback?run=${ids.openai}&key=tone`);
  assert.deepEqual(
    (listed.body as { value: string; comment: string }[]).map((f) => [f.value, f.comment]),
    [["friendly", "warm after all"]],
  );
  await tone.getByRole("button", { name: "Delete" }).click();
  await tone.waitFor({ state: "detached" });
  assert.deepEqual((await api("GET", `/feedback?run=${ids.openai}&key=tone`)).body, []);
  assert.deepEqual(dialogs, []);
});

test("add the run to a new dataset, then browse the dataset and its example", { skip }, async () => {
  await page.getByRole("button", { name: "Add to dataset" }).click();
  const form = page.getByRole("form", { name: "Add to dataset" });
  await form.locator("select").selectOption({ label: "New dataset…" });
  await form.locator("input").first().fill("weather-regressions");
  await form.getByRole("button", { name: "Add run" }).click();
  await form.getByRole("link", { name: "weather-regressions" }).click();
  await page.getByTestId("dataset-name").filter({ hasText: "weather-regressions" }).waitFor();
  await page.locator('[data-testid="examples"] tbody tr').first().click();
  await page.getByTestId("example-detail").waitFor();
  assert.ok(((await page.getByTestId("example-detail").textContent()) ?? "").includes("get_weather"));
  await shot("dataset-examples");
  await page.goto(`${server.url}/o/${workspaceId}/datasets`);
  await page.locator('[data-testid="datasets"] tr', { hasText: "weather-regressions" }).waitFor();
  await shot("datasets");
});
