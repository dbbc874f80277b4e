import { test } from "node:test";
import assert from "node:assert/strict";
import { contentOf, manifestOf, type LangfuseContent } from "./prompt-manifest";

test("a Langfuse prompt's manifest is a LangChain mustache template that reads back as created", () => {
  const text: LangfuseContent = { type: "text", prompt: "Hello {{name}}, about {{ topic }}?", config: { temperature: 0 } };
  const manifest = manifestOf(text) as { id: string[]; kwargs: Record<string, unknown> };
  assert.deepEqual(manifest.id, ["langchain", "prompts", "prompt", "PromptTemplate"]);
  assert.equal(manifest.kwargs.template_format, "mustache");
  assert.deepEqual(manifest.kwargs.input_variables, ["name", "topic"]);
  assert.deepEqual(contentOf(manifest), text);

  const chat: LangfuseContent = {
    type: "chat",
    prompt: [
      { type: "chatmessage", role: "system", content: "Be {{tone}}." },
      { type: "placeholder", name: "history" },
      { type: "chatmessage", role: "critic", content: "{{question}}" },
    ],
    config: {},
  };
  const chatManifest = manifestOf(chat) as { kwargs: { input_variables: string[]; messages: { id: string[] }[] } };
  assert.deepEqual(chatManifest.kwargs.input_variables, ["tone", "history", "question"]);
  assert.deepEqual(
    chatManifest.kwargs.messages.map((m) => m.id.at(-1)),
    ["SystemMessagePromptTemplate", "MessagesPlaceholder", "ChatMessagePromptTemplate"],
  );
  assert.deepEqual(contentOf(chatManifest), chat);
});

test("a prompt pushed through the LangSmith API (f-string templates) reads as a Langfuse prompt", () => {
  const pushed = {
    lc: 1,
    type: "constructor",
    id: ["langchain", "prompts", "chat", "ChatPromptTemplate"],
    kwargs: {
      messages: [
        {
          id: ["langchain", "prompts", "chat", "SystemMessagePromptTemplate"],
          kwargs: { prompt: { kwargs: { template: "Answer about {topic}; keep {{braces}}.", template_format: "f-string" } } },
        },
        { id: ["langchain", "prompts", "chat", "MessagesPlaceholder"], kwargs: { variable_name: "history" } },
      ],
    },
  };
  assert.deepEqual(contentOf(pushed), {
    type: "chat",
    prompt: [
      { type: "chatmessage", role: "system", content: "Answer about {{topic}}; keep {braces}." },
      { type: "placeholder", name: "history" },
    ],
    config: {},
  });
  assert.deepEqual(contentOf({ kwargs: { template: "Hi {name}" } }), { type: "text", prompt: "Hi {{name}}", config: {} });
});
