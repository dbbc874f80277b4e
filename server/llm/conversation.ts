import type { Conversation, ConversationFormat, Diagnostic } from "./conversation-types";
import { anthropicPart, detectAnthropic, readAnthropic } from "./formats/anthropic";
import { isObj, textBlocks, type Ctx, type Located, type PartReader, type Sides } from "./formats/common";
import { detectGemini, geminiPart, readGemini } from "./formats/gemini";
import { detectLangChain, readLangChain } from "./formats/langchain";
import { detectNative, nativePart, readNative } from "./formats/native";
import { detectOpenAIChat, detectOpenAIResponses, openaiPart, readOpenAIChat, readOpenAIResponses } from "./formats/openai";
import { detectOther, readOther } from "./formats/other";

export type * from "./conversation-types";

/**
 * Detection order: the first format whose signals the run shows wins.
 *  1. langchain — `outputs.generations`, `inputs.prompts`, `inputs.messages` as a list of lists, or any
 *     message in the `lc` constructor / `{type: "human" | "ai" | ...}` form. First, because LangChain
 *     messages wrap other providers' content blocks.
 *  2. gemini — `inputs.contents`, a `systemInstruction`, or `outputs.candidates` (keys no other format uses).
 *  3. openai-responses — `outputs.object == "response"`, typed `outputs.output` items, `inputs.instructions`,
 *     or `inputs.input` as Responses items (no `inputs.messages`).
 *  4. anthropic — a top-level `system`, Anthropic-only blocks (tool_use, tool_result, thinking, image
 *     with `source`, ...), tools with `input_schema`, or a Message output (`stop_reason`, `msg_` id).
 *  5. openai — a `chat.completion` output, choices with `finish_reason`, function tools, or messages
 *     with OpenAI-only features (developer/function roles, `tool_calls[].function`, image_url/input_audio/file parts).
 *  6. native — `inputs.messages` of role messages with native typed content (v1 blocks), LangChain-style
 *     `tool_calls` (`args` objects), the `reasoning` role or per-message usage_metadata, or a `{messages}` output.
 *  7. other — the contract's custom-model shapes: role/content lists in; `choices`, `message`,
 *     role+content or a `[role, content]` pair out.
 *  8. unknown — no messages; the UI shows the JSON.
 * Formats 5-7 read the same plain `{role, content: string}` messages the same way; the order only
 * decides the label.
 */
const FORMATS: {
  format: ConversationFormat;
  detect: (i: unknown, o: unknown) => boolean;
  read: (i: unknown, o: unknown, ctx: Ctx) => Sides;
}[] = [
  { format: "langchain", detect: detectLangChain, read: readLangChain },
  { format: "gemini", detect: detectGemini, read: readGemini },
  { format: "openai-responses", detect: detectOpenAIResponses, read: readOpenAIResponses },
  { format: "anthropic", detect: detectAnthropic, read: readAnthropic },
  { format: "openai", detect: detectOpenAIChat, read: readOpenAIChat },
  { format: "native", detect: detectNative, read: readNative },
  { format: "other", detect: detectOther, read: readOther },
];

/** Content parts of every format, most specific first: native v1 blocks, OpenAI, Anthropic, Gemini. */
const PART_READERS: PartReader[] = [nativePart, openaiPart, anthropicPart, geminiPart];

function makeContext(): Ctx {
  const ctx: Ctx = {
    diagnostics: [],
    part(part, path) {
      if (typeof part === "string") return textBlocks(part);
      if (isObj(part)) {
        for (const read of PART_READERS) {
          const blocks = read(part, path, ctx);
          if (blocks) return blocks;
        }
      }
      return [{ type: "json", value: part }];
    },
  };
  return ctx;
}

/** Tool messages must answer a tool call made by an earlier assistant message (inputs, then outputs). */
function checkToolLinks(messages: Located[], diagnostics: Diagnostic[]) {
  const calls = new Set<string>();
  for (const { message, path, toolCallIdPath } of messages) {
    if (message.role === "assistant") {
      for (const b of message.blocks) if (b.type === "tool_call" && b.id) calls.add(b.id);
    } else if (message.role === "tool" && message.toolCallId && !calls.has(message.toolCallId)) {
      diagnostics.push({
        path: toolCallIdPath ?? `${path}.tool_call_id`,
        message: `This tool message answers tool call "${message.toolCallId}", but no earlier assistant message made a tool call with that id.`,
      });
    }
  }
}

const EMPTY = (format: ConversationFormat, diagnostics: Diagnostic[] = []): Conversation => ({
  format,
  input: [],
  output: [],
  diagnostics,
});

/** The run's conversation in the canonical model. Never throws: a run it cannot read is format "unknown". */
export function toConversation(run: { run_type: string; inputs: unknown; outputs: unknown }): Conversation {
  const { inputs, outputs } = run;
  for (const f of FORMATS) {
    let detected = false;
    try {
      detected = f.detect(inputs, outputs);
    } catch {
      detected = false;
    }
    if (!detected) continue;
    const ctx = makeContext();
    try {
      const sides = f.read(inputs, outputs, ctx);
      if (!sides.input.length && !sides.output.length) continue;
      checkToolLinks([...sides.input, ...sides.output], ctx.diagnostics);
      return {
        format: f.format,
        input: sides.input.map((l) => l.message),
        output: sides.output.map((l) => l.message),
        diagnostics: ctx.diagnostics,
      };
    } catch (e) {
      return EMPTY("unknown", [
        { path: "inputs", message: `The ${f.format} messages could not be read: ${(e as Error)?.message ?? String(e)}` },
      ]);
    }
  }
  return EMPTY("unknown");
}

/** Diagnostics only (for the single-run answer); empty for runs that are not LLM runs. */
export function conversationDiagnostics(run: { run_type: string; inputs: unknown; outputs: unknown }): Diagnostic[] {
  return run.run_type === "llm" ? toConversation(run).diagnostics : [];
}
