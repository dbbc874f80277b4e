import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import { withTestDatabases } from "../db/test-databases";
import { chatPromptManifest, templateMessagesOf } from "../generate/manifest";
import { ingestRuns } from "../ingest/service";
import { createCommit } from "../prompts/commits";
import { createRepo } from "../prompts/repos";
import { saveAsPromptCommit, seedFromPrompt, seedFromRun } from "./seed";

test("a chat prompt manifest's messages read back as written (LangChain templates, plain messages, pairs)", () => {
  const messages = [
    { role: "system", content: "You answer about {topic}." },
    { role: "user", content: "{question}" },
  ];
  assert.deepEqual(templateMessagesOf(chatPromptManifest(messages).manifest), messages);
  assert.deepEqual(templateMessagesOf({ kwargs: { messages: [["human", "hi {name}"], { role: "assistant", content: "hello" }] } }), [
    { role: "user", content: "hi {name}" },
    { role: "assistant", content: "hello" },
  ]);
  assert.deepEqual(templateMessagesOf({ template: "not a chat prompt" }), []);
});

withTestDatabases("playground seeds", (open) => {
  test("an Anthropic run opens as OpenAI chat messages with its tools, model and parameters; a prompt with its variables", async () => {
    const db = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "seeds")).id;
    const id = randomUUID();
    await ingestRuns(db, ws, {
      post: [
        {
          id,
          name: "ChatAnthropic",
          run_type: "llm",
          session_name: "p",
          inputs: {
            system: "Be terse.",
            messages: [
              {
                role: "user",
                content: [
                  { type: "text", text: "Weather in Paris?" },
                  { type: "image", source: { type: "url", url: "https://example.com/sky.png" } },
                ],
              },
              { role: "assistant", content: [{ type: "tool_use", id: "tu_1", name: "get_weather", input: { city: "Paris" } }] },
              { role: "user", content: [{ type: "tool_result", tool_use_id: "tu_1", content: "18°C" }] },
            ],
            tools: [
              {
                name: "get_weather",
                description: "Weather now",
                input_schema: { type: "object", properties: { city: { type: "string" } } },
              },
            ],
          },
          outputs: { content: [{ type: "text", text: "18°C and sunny." }], stop_reason: "end_turn" },
          extra: { invocation_params: { model: "claude-sonnet-4", temperature: 0.2, max_tokens: 300, stop: "END" } },
        },
      ],
    });
    const seed = await seedFromRun(db, ws, id);
    assert.equal(seed.request.model, "claude-sonnet-4");
    assert.deepEqual([seed.request.temperature, seed.request.max_tokens, seed.request.stop], [0.2, 300, ["END"]]);
    assert.deepEqual(
      seed.request.messages.map((m) => m.role),
      ["system", "user", "assistant", "tool"],
    );
    assert.deepEqual(seed.request.messages[1].content, [
      { type: "text", text: "Weather in Paris?" },
      { type: "image_url", image_url: { url: "https://example.com/sky.png" } },
    ]);
    assert.deepEqual(seed.request.messages[2].tool_calls, [
      { id: "tu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
    assert.equal(seed.request.messages[3].tool_call_id, "tu_1");
    assert.equal(seed.request.tools?.[0].function.name, "get_weather");
    assert.equal(seed.previous_answer, "18°C and sunny.");

    const caller = { workspaceId: ws, liker: "u" };
    await createRepo(db, caller, { handle: "qa", isPublic: false });
    await createCommit(db, caller, "-", "qa", {
      manifest: chatPromptManifest([
        { role: "system", content: "About {topic}" },
        { role: "user", content: "{question}" },
      ]).manifest,
    });
    const fromPrompt = await seedFromPrompt(db, caller, "-", "qa", "latest");
    assert.deepEqual(fromPrompt.variables, ["topic", "question"]);
    // Saving commits on top (and makes the prompt when it is new).
    const saved = await saveAsPromptCommit(db, caller, { repo: "qa-2", messages: [{ role: "system", content: "New {x}" }] });
    assert.equal(saved.commit.repo, "qa-2");
    assert.deepEqual((await seedFromPrompt(db, caller, "-", "qa-2", "latest")).variables, ["x"]);
  });
});
