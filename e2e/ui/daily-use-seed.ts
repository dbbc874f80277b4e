import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { type Client, RunTree } from "langsmith";

/**
 * The daily-use suite's runs in the project `support-bot` (beside seedTraces' trace): three
 * `route-intent` runs only their inputs tell apart, and a streamed LLM call twice — over REST with its
 * tokens on `new_token` events, and through the SDK, whose events arrive without their text.
 */
export async function seedLookAlikesAndStreams(
  client: Client,
  api: (method: string, route: string, body?: unknown) => Promise<{ status: number; body: unknown }>,
): Promise<void> {
  // The same name three times: only the input tells them apart.
  for (const question of ["Refund order 12", "Track order 88", "Cancel order 5"]) {
    const run = new RunTree({ name: "route-intent", run_type: "chain", inputs: { question }, client, project_name: "support-bot" });
    await run.postRun();
    await run.end({ intent: question.split(" ")[0].toLowerCase() });
    await run.patchRun();
  }
  // A streamed LLM run with its tokens on new_token events, as OTel bridges and raw REST clients
  // send them (the langsmith SDK leaves the token text out of the events it uploads).
  const id = randomUUID();
  const start = Date.now() - 2000;
  const stamp = `${new Date(start).toISOString().slice(0, 23).replace(/[-:.]/g, "")}000Z`;
  const at = (ms: number) => new Date(start + ms).toISOString();
  const posted = await api("POST", "/runs/batch", {
    post: [
      {
        id,
        trace_id: id,
        dotted_order: `${stamp}${id}`,
        name: "ChatOpenAI",
        run_type: "llm",
        session_name: "support-bot",
        start_time: at(0),
        end_time: at(400),
        inputs: { messages: [{ role: "user", content: "Say hello" }] },
        outputs: { choices: [{ message: { role: "assistant", content: "Hello there!" } }] },
        events: ["Hel", "lo", " there", "!"].map((token, i) => ({ name: "new_token", time: at(120 + i * 40), kwargs: { token } })),
        extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
      },
    ],
  });
  assert.ok(posted.status < 300, JSON.stringify(posted.body));
  // The same through the SDK: its events arrive without their text.
  const streamed = new RunTree({
    name: "ChatOpenAI",
    run_type: "llm",
    inputs: { messages: [{ role: "user", content: "Say hi (SDK)" }] },
    client,
    project_name: "support-bot",
    extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
  });
  await streamed.postRun();
  for (const token of ["Hel", "lo", " there", "!"]) streamed.addEvent({ name: "new_token", kwargs: { token } });
  await streamed.end({ choices: [{ message: { role: "assistant", content: "Hi!" } }] });
  await streamed.patchRun();
  await client.awaitPendingTraceBatches();
}
