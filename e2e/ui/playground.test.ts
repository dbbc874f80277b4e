/**
 * The playground in Debian's Chromium: a model connection added and tested in Settings, an LLM run
 * opened in the playground, its system prompt changed, run with the answer streaming in (from a
 * real local model server), then saved as a prompt commit that the SDK pulls back.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { Client } from "langsmith";
import { startTestModelServer, type TestModelServer } from "../../server/models/test-server";
import { addModelConnectionInBrowser, createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("playground@example.com", { env: { ALLOW_PRIVATE_EGRESS: "1" } });
let model: TestModelServer;
before(async () => {
  model = await startTestModelServer();
});
after(async () => model?.close());

test("open an LLM run in the playground, change the system prompt, run, save as a prompt commit", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const client = new Client({ apiUrl: server.url, apiKey: await createKeyInBrowser(page, user), autoBatchTracing: false });

  // A connection, added and tested in Settings.
  await addModelConnectionInBrowser(page, server.url, user, model.url);
  const table = page.getByTestId("model-connections");
  await table.getByRole("button", { name: "Test" }).click();
  await table.getByText(/OK · \d+ ms/).waitFor();
  await shot("model-connections");
  await shot("model-connections-dark", "dark");

  const runId = randomUUID();
  await client.createRun({
    id: runId,
    name: "ChatOpenAI",
    run_type: "llm",
    project_name: "support",
    inputs: {
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Where is my parcel?" },
      ],
    },
    outputs: { choices: [{ message: { role: "assistant", content: "In transit." } }] },
    extra: { invocation_params: { model: "gpt-4o-mini", temperature: 0.7 } },
  } as never);

  await page.goto(`${server.url}/o/${user.workspaceId}/projects/p/support/r/${runId}`);
  await page.getByRole("link", { name: "Open in playground" }).click();
  await page.waitForURL(/\/playground\?run=/);
  const variant = page.getByTestId("variant").first();
  await variant.getByLabel("Message 1 content").waitFor();
  assert.equal(await variant.getByLabel("Model").inputValue(), "gpt-4o-mini");
  assert.equal(await variant.getByLabel("Temperature").inputValue(), "0.7");
  assert.equal(await variant.getByLabel("Message 2 content").inputValue(), "Where is my parcel?");
  await variant.getByLabel("Message 1 content").fill("You are kind and precise.");

  model.chunkDelayMs = 60;
  await page.keyboard.press("Control+Enter");
  const output = variant.getByTestId("variant-output");
  // Streaming: a first piece is shown before the whole answer.
  await output.getByText(/^You said:/).waitFor();
  const partial = await output.innerText();
  await variant.getByTestId("variant-metrics").waitFor();
  model.chunkDelayMs = 0;
  assert.equal(await output.innerText(), "You said: Where is my parcel?");
  assert.ok(partial.length < "You said: Where is my parcel?".length, `seen while streaming: "${partial}"`);
  assert.match(await variant.getByTestId("variant-metrics").innerText(), /Tokens \d+ in \/ \d+ out/);
  const sent = model.requests.at(-1)!.body;
  assert.equal(sent.messages![0].content, "You are kind and precise.");
  await shot("playground");
  await shot("playground-dark", "dark");

  await page.getByRole("button", { name: "Save as prompt" }).click();
  const save = page.getByRole("form", { name: "Save as prompt" });
  await save.getByLabel("Prompt name").fill("parcel-answer");
  await save.getByRole("button", { name: "Commit" }).click();
  await save.getByText("Committed").waitFor();
  const pulled = await client.pullPromptCommit("parcel-answer");
  assert.match(JSON.stringify(pulled.manifest), /You are kind and precise\./);

  // The call is a trace in the playground project.
  const runs = [];
  for await (const r of client.listRuns({ projectName: "playground" })) runs.push(r);
  assert.equal(runs.length, 1);
  assert.deepEqual(dialogs, []);
});
