/**
 * A trace sent with Langfuse's own SDK (the `langfuse` npm client v3) in Debian's Chromium: its
 * project is the public key, the trace opens as a tree (trace → span → generation) and the
 * generation's chat messages read as a conversation, as a LangSmith trace's do.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Langfuse } from "langfuse";
import { Client } from "langsmith";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("langfuse-ui@example.com");
const PROJECT = "pk-lf-ui";

test("a Langfuse trace renders its tree and conversation like a LangSmith one", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const apiKey = await createKeyInBrowser(page, user);
  const langfuse = new Langfuse({ publicKey: PROJECT, secretKey: apiKey, baseUrl: server.url, fetchRetryCount: 0 });
  const trace = langfuse.trace({
    name: "travel-assistant",
    userId: "ui-user",
    sessionId: "ui-session",
    input: { question: "Weather in Lyon?" },
  });
  const span = trace.span({ name: "plan-answer", input: { city: "Lyon" } });
  const start = new Date();
  span
    .generation({
      name: "chat-completion",
      model: "gpt-4o-mini",
      startTime: start,
      completionStartTime: new Date(start.getTime() + 180),
      input: [
        { role: "system", content: "You are a concise travel assistant." },
        { role: "user", content: "What is the weather in Lyon today? <b>bold?</b>" },
      ],
    })
    // A recorded call: `update` with its end time (`end()` would stamp the time it is called).
    .update({
      endTime: new Date(start.getTime() + 600),
      output: { role: "assistant", content: "It is **sunny** and 24 °C in Lyon." },
      usageDetails: { input: 52, output: 14 },
    });
  span.update({ endTime: new Date(start.getTime() + 650), output: { ok: true } });
  trace.update({ output: { answer: "Sunny, 24 °C." } });
  await langfuse.shutdownAsync();

  const client = new Client({ apiUrl: server.url, apiKey });
  const project = await client.readProject({ projectName: PROJECT });
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${project.id}/traces/${trace.id}`);
  await page.getByTestId("trace-tree").waitFor();
  const rows = page.getByTestId("trace-row");
  await rows.nth(2).waitFor();
  assert.equal(await rows.count(), 3, "trace → span → generation");
  await page.getByTestId("trace-project").filter({ hasText: PROJECT }).waitFor(); // the public key is the project
  const generationRow = rows.filter({ hasText: "chat-completion" }).first();
  const chips = (await generationRow.textContent()) ?? "";
  assert.ok(chips.includes("gpt-4o-mini") && chips.includes("66 tok") && /⚡\d+ms/.test(chips), chips);

  await generationRow.click();
  await page.locator('[data-testid="run-detail"] h2', { hasText: "chat-completion" }).waitFor();
  await page.getByRole("tab", { name: "Conversation" }).click();
  const conversation = page.getByTestId("conversation");
  await conversation.waitFor();
  // Plain `{role, content}` messages: the contract's shape for custom model runs, as a LangSmith run with them reads.
  assert.equal(await conversation.getAttribute("data-format"), "other");
  const text = (await conversation.textContent()) ?? "";
  assert.ok(text.includes("You are a concise travel assistant."), text);
  assert.ok(text.includes("<b>bold?</b>"), "markup in a message is text");
  assert.equal(await conversation.locator("b", { hasText: "bold?" }).count(), 0);
  assert.equal(await conversation.locator("strong", { hasText: "sunny" }).count(), 1, "the answer's markdown is rendered");
  await shot("langfuse-trace");
  await shot("langfuse-trace-dark", "dark");
  assert.deepEqual(dialogs, []);
});
