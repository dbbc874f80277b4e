/**
 * Evaluators in Debian's Chromium: an evaluator made in the page (prompt, feedback keys), attached to
 * a project, a backfill over the last days run with its progress shown, the model's verdicts in the
 * logs and as feedback the SDK reads back; a real local model server judges.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { Client } from "langsmith";
import { startTestModelServer, type TestModelServer } from "../../server/models/test-server";
import { call } from "../harness/http";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("evaluators@example.com", { env: { ALLOW_PRIVATE_EGRESS: "1" } });
let model: TestModelServer;
before(async () => {
  model = await startTestModelServer();
});
after(async () => model?.close());

test("create an evaluator, attach it to a project, backfill, see the verdicts", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const apiKey = await createKeyInBrowser(page, user);
  const api = { url: server.url, apiKey };
  const client = new Client({ apiUrl: server.url, apiKey, autoBatchTracing: false });
  const connection = await call(api, "POST", "/model-connections", {
    name: "judge",
    base_url: `${model.url}/v1`,
    default_model: "gpt-4o-mini",
  });
  assert.equal(connection.status, 201);
  const ids = [randomUUID(), randomUUID(), randomUUID()];
  for (const [i, id] of ids.entries()) {
    const start = Date.now() - 3_600_000 + i * 1000;
    await client.createRun({
      id,
      name: "support-bot",
      run_type: "chain",
      project_name: "support",
      inputs: { question: `Where is parcel ${i}?` },
      outputs: { answer: "In transit." },
      start_time: start,
      end_time: start + 500,
    });
  }

  await page.goto(`${server.url}/o/${user.workspaceId}/evaluators`);
  await page.getByText("No evaluators yet").waitFor();
  await page.getByRole("button", { name: "New evaluator" }).click();
  const form = page.getByRole("form", { name: "New evaluator" });
  await form.getByLabel("Evaluator name").fill("helpful answer");
  await form.getByRole("button", { name: "Add key" }).click();
  await form.getByLabel("Key 2", { exact: true }).fill("tone");
  await form.getByLabel("Key 2 type").selectOption("categorical");
  await form.getByLabel("Key 2 categories").fill("friendly, neutral, rude");
  await shot("evaluator-new");
  await form.getByRole("button", { name: "Create evaluator" }).click();

  const detail = page.getByTestId("evaluator-detail");
  await detail.getByRole("heading", { name: "helpful answer" }).waitFor();
  await page.getByTestId("evaluators").getByText("tone").waitFor();
  await detail.getByLabel("Attach to").selectOption({ label: "support" });
  await detail.getByRole("button", { name: "Attach" }).click();
  const attachment = detail.getByTestId("attachment");
  await attachment.getByText("support").waitFor();
  await attachment.getByRole("button", { name: "Backfill" }).click();
  await attachment.getByText(/done/).waitFor({ timeout: 30_000 });
  await attachment.getByText("3 / 3").waitFor();
  await attachment.getByRole("button", { name: "Logs" }).click();
  await detail
    .getByText(/correctness=true, tone=friendly/)
    .first()
    .waitFor();
  await page.reload();
  await page.getByTestId("evaluators").getByRole("cell", { name: "3", exact: true }).waitFor();
  await detail.getByTestId("attachment").waitFor();
  await shot("evaluators");
  await shot("evaluators-dark", "dark");

  const feedback = [];
  for await (const f of client.listFeedback({ runIds: ids })) feedback.push(f);
  assert.deepEqual(feedback.map((f) => `${f.key}:${f.score ?? f.value}`).sort(), [
    "correctness:1",
    "correctness:1",
    "correctness:1",
    "tone:friendly",
    "tone:friendly",
    "tone:friendly",
  ]);
  assert.deepEqual(dialogs, []);
});
