/**
 * Issue 38's review, items 4 and 5, in Debian's Chromium: the playground shows a tool-call answer
 * (from a real local model server) by name and arguments, lets the run's tool calls be seen and
 * edited, renders the answer as Markdown and highlights `{variables}`; the annotation reviewer sees
 * the trace (tree, conversation, tool results) beside the rubric, the instructions as Markdown, and
 * the review is signed by the person.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { Client } from "langsmith";
import { startTestModelServer, type TestModelServer } from "../../server/models/test-server";
import { addModelConnectionInBrowser, createKeyInBrowser, seedTraces } from "./harness";
import { noChromium, watchConsole, restCall, signedInSuite } from "./suite";

const suite = signedInSuite("playground-review@example.com", { env: { ALLOW_PRIVATE_EGRESS: "1" } });
const skip = noChromium;
let model: TestModelServer;
let client: Client;
let apiKey = "";
let errors: string[] = [];
before(async () => {
  model = await startTestModelServer();
});
after(async () => model?.close());

const api = (method: string, route: string, body?: unknown) => restCall(suite.server.url, apiKey, method, route, body);

const TOOLS = [
  {
    type: "function",
    function: {
      name: "track_package",
      description: "Where a parcel is",
      parameters: { type: "object", properties: { carrier: { type: "string" }, order: { type: "number" } } },
    },
  },
];

test("setup: a model connection", { skip }, async () => {
  const { server, page, user } = suite;
  errors = watchConsole(page);
  apiKey = await createKeyInBrowser(page, user);
  client = new Client({ apiUrl: server.url, apiKey, autoBatchTracing: false });
  await addModelConnectionInBrowser(page, server.url, user, model.url);
});

test("item 4: tool calls seen and edited, a tool-call answer shown, Markdown output, {variables} highlighted", { skip }, async () => {
  const { server, page, user, shot } = suite;
  // An agent step: the user asked, the model called a tool, the tool answered; the next call is forced to the tool.
  const runId = randomUUID();
  await client.createRun({
    id: runId,
    name: "ChatOpenAI",
    run_type: "llm",
    project_name: "support",
    inputs: {
      messages: [
        { role: "system", content: "You track parcels." },
        { role: "user", content: "Where is order 1042?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "track_package", arguments: '{"carrier":"UPS","order":1042}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"status": "in transit"}' },
      ],
      tools: TOOLS,
    },
    outputs: { choices: [{ message: { role: "assistant", content: "It is in transit." } }] },
    extra: { invocation_params: { model: "gpt-4o-mini", tool_choice: { type: "function", function: { name: "track_package" } } } },
  } as never);

  await page.goto(`${server.url}/o/${user.workspaceId}/playground?run=${runId}`);
  const variant = page.getByTestId("variant").first();
  const calls = variant.getByTestId("tool-call");
  await calls.first().waitFor();
  assert.equal(await calls.count(), 1);
  assert.equal(await variant.getByLabel("Message 3 tool call 1 name").inputValue(), "track_package");
  assert.deepEqual(JSON.parse(await variant.getByLabel("Message 3 tool call 1 arguments").inputValue()), { carrier: "UPS", order: 1042 });
  assert.equal(await variant.getByLabel("Message 4 tool call id").inputValue(), "call_1");
  // Edited: the request carries the new arguments.
  await variant.getByLabel("Message 3 tool call 1 arguments").fill('{"carrier": "DHL", "order": 1042}');
  // A {variable} in the system message is highlighted and offered as an input.
  await variant.getByLabel("Message 1 content").fill("You track parcels for {company}. Answer in {language}.");
  const marks = await variant.getByTestId("template-backdrop").first().locator("mark").allInnerTexts();
  assert.deepEqual(marks, ["{company}", "{language}"]);
  await page.getByLabel("Input company").fill("Acme");
  await page.getByLabel("Input language").fill("English");

  await variant.getByRole("button", { name: "Run", exact: true }).click();
  const answer = variant.getByTestId("answer-tool-call");
  await answer.waitFor();
  assert.match(await answer.innerText(), /track_package/);
  assert.doesNotMatch(await variant.getByTestId("variant-output").innerText(), /The answer streams here/);
  const sent = model.requests.at(-1)!.body;
  const assistant = sent.messages!.find((m) => m.role === "assistant") as unknown as { tool_calls: { function: { arguments: string } }[] };
  assert.deepEqual(JSON.parse(assistant.tool_calls[0].function.arguments), { carrier: "DHL", order: 1042 });
  assert.equal(sent.messages![0].content, "You track parcels for Acme. Answer in English.");
  await variant.getByTestId("variant-metrics").waitFor();
  await variant.getByTestId("variant-output").scrollIntoViewIfNeeded();
  await shot("ten-playground-tool-call");
  await shot("ten-playground-tool-call-dark", "dark");

  // A plain answer is Markdown: the test model echoes the last user message.
  const plainId = randomUUID();
  await client.createRun({
    id: plainId,
    name: "ChatOpenAI",
    run_type: "llm",
    project_name: "support",
    inputs: { messages: [{ role: "user", content: "**Shipped** with `UPS`" }] },
    outputs: { choices: [{ message: { role: "assistant", content: "ok" } }] },
    extra: { invocation_params: { model: "gpt-4o-mini" } },
  } as never);
  await page.goto(`${server.url}/o/${user.workspaceId}/playground?run=${plainId}`);
  await page.getByTestId("variant").first().getByLabel("Message 1 content").waitFor();
  await page.keyboard.press("Control+Enter");
  const output = page.getByTestId("variant-output").first();
  await output.locator("strong").waitFor();
  assert.equal(await output.locator("strong").innerText(), "Shipped");
  assert.equal(await output.locator("code").innerText(), "UPS");
  // The call's trace keeps its first streamed token on the new_token event.
  const href = await page.getByTestId("variant-metrics").first().getByRole("link", { name: "Trace" }).getAttribute("href");
  const recorded = await api("GET", `/runs/${href!.split("/").at(-1)}`);
  assert.deepEqual(
    (recorded.body as { events: { name: string; kwargs?: { token: string } }[] }).events.map((e) => [e.name, e.kwargs?.token]),
    [["new_token", "You "]],
  );
  await shot("ten-playground-markdown");
  await shot("ten-playground-markdown-dark", "dark");
});

test("item 5: the reviewer sees the trace beside the rubric, the instructions as Markdown, and signs as the person", { skip }, async () => {
  const { server, page, user, shot } = suite;
  const { traceId } = await seedTraces(server, apiKey, "agents");
  assert.equal(
    (
      await api("POST", "/feedback-configs", {
        feedback_key: "resolved",
        feedback_config: {
          type: "categorical",
          categories: [
            { value: 1, label: "Resolved" },
            { value: 0, label: "Not resolved" },
          ],
        },
      })
    ).status,
    200,
  );
  const queue = await api("POST", "/annotation-queues", {
    name: "Agent answers",
    rubric_instructions: "Read the **whole trace** before judging:\n\n- did the agent call `track_package`?\n- is the answer right?",
    rubric_items: [{ feedback_key: "resolved", is_required: true }],
  });
  assert.equal(queue.status, 200, JSON.stringify(queue.body));
  const queueId = (queue.body as { id: string }).id;
  assert.equal((await api("POST", `/annotation-queues/${queueId}/runs`, [traceId])).status, 200);

  await page.goto(`${server.url}/o/${user.workspaceId}/queues/${queueId}/review`);
  const outline = page.getByTestId("trace-outline");
  await outline.waitFor();
  assert.ok((await outline.getByRole("button").count()) >= 5, "the trace's runs are listed");
  const instructions = page.getByTestId("rubric-instructions");
  assert.equal(await instructions.locator("strong").innerText(), "whole trace");
  assert.equal(await instructions.locator("li").count(), 2);
  await shot("ten-review-trace");
  await shot("ten-review-trace-dark", "dark");

  // A step of the trace opens beside the rubric: the tool's result, then the model's conversation.
  await outline.getByRole("button", { name: /track_package/ }).click();
  await page.getByTestId("viewing-child").waitFor();
  const detail = page.getByTestId("run-detail");
  assert.equal((await detail.locator("h2").innerText()).trim(), "track_package");
  assert.match(await detail.innerText(), /in transit/);
  await outline
    .getByRole("button", { name: /ChatOpenAI/ })
    .first()
    .click();
  await detail.getByText("You are a helpful support agent.").waitFor();
  await shot("ten-review-step");
  await page.getByRole("button", { name: "Back to the reviewed run" }).click();
  await page.getByTestId("viewing-child").waitFor({ state: "detached" });
  assert.equal((await detail.locator("h2").innerText()).trim(), "support-agent");

  await page
    .getByTestId("question-resolved")
    .getByRole("button", { name: /Resolved/ })
    .first()
    .click();
  await page.getByRole("button", { name: /Submit/ }).click();
  await page
    .getByText(/That was the last run for you|Nothing left for you here/)
    .first()
    .waitFor();
  const feedback: { key: string; score?: number | null; feedback_source?: { metadata?: Record<string, string> } }[] = [];
  for await (const f of client.listFeedback({ runIds: [traceId], feedbackKeys: ["resolved"] })) feedback.push(f as never);
  assert.equal(feedback.length, 1);
  assert.equal(feedback[0].score, 1);
  assert.equal(feedback[0].feedback_source?.metadata?.user_id, user.userId, "signed by the person, not the key");
  assert.equal(feedback[0].feedback_source?.metadata?.user_name, "Ada Lovelace");
  assert.deepEqual(errors, []);
});
