import type { Block } from "../conversation-types";
import {
  arr,
  contentBlocks,
  fromUrl,
  isObj,
  isRoleMessage,
  located,
  media,
  parseArgs,
  str,
  textBlocks,
  type Ctx,
  type Located,
  type Obj,
  type Sides,
} from "./common";
import { outputShapes, readRoleMessage } from "./native";

/**
 * OpenAI Chat Completions (`inputs.messages`, `outputs.choices[].message`) and the Responses API
 * (`inputs.instructions` + `inputs.input` items, `outputs.output` items), as `wrapOpenAI` sends them:
 * the request as the inputs, the response (usage moved to usage_metadata) as the outputs.
 */

const AUDIO_MIME: Record<string, string> = { mp3: "audio/mpeg", wav: "audio/wav" };

function fileSource(f: Obj) {
  const data = str(f.file_data);
  const src = data?.startsWith("data:") ? fromUrl(data) : { base64: data };
  return { ...src, url: str(f.file_url), id: str(f.file_id) };
}

/** One Chat Completions or Responses content part; null when the part is not OpenAI's. */
export function openaiPart(p: Obj, path: string, ctx: Ctx): Block[] | null {
  switch (p.type) {
    case "input_text":
    case "output_text":
      return [{ type: "text", text: str(p.text) ?? "" }];
    case "refusal":
      return [{ type: "text", text: str(p.refusal) ?? "" }];
    case "summary_text":
    case "reasoning_text":
      return [{ type: "reasoning", text: str(p.text) ?? "" }];
    case "image_url": {
      const url = isObj(p.image_url) ? str(p.image_url.url) : str(p.image_url);
      return [media("image", fromUrl(url), path, ctx)];
    }
    case "input_image":
      return [media("image", { ...fromUrl(str(p.image_url)), id: str(p.file_id) }, path, ctx)];
    case "input_audio": {
      const a = isObj(p.input_audio) ? p.input_audio : p;
      const format = str(a.format);
      return [media("audio", { base64: str(a.data), mimeType: format ? (AUDIO_MIME[format] ?? `audio/${format}`) : undefined }, path, ctx)];
    }
    case "file":
      if (!isObj(p.file)) return null;
      return [media("file", fileSource(p.file), path, ctx, str(p.file.filename))];
    case "input_file":
      return [media("file", fileSource(p), path, ctx, str(p.filename))];
  }
  return null;
}

/** A Chat Completions message: the role-message reader plus the deprecated function_call, audio and reasoning_content. */
export function readChatMessage(m: unknown, path: string, ctx: Ctx): Located[] {
  const out = readRoleMessage(m, path, ctx);
  if (!isObj(m) || out.length !== 1) return out;
  const blocks = out[0].message.blocks;
  if (typeof m.reasoning_content === "string" && m.reasoning_content) blocks.unshift({ type: "reasoning", text: m.reasoning_content });
  if (isObj(m.function_call)) {
    blocks.push({
      type: "tool_call",
      id: null,
      name: str(m.function_call.name) ?? "",
      args: parseArgs(m.function_call.arguments, `${path}.function_call.arguments`, ctx),
    });
  }
  if (isObj(m.audio)) {
    if (typeof m.audio.transcript === "string") blocks.push(...textBlocks(m.audio.transcript));
    blocks.push(media("audio", { id: str(m.audio.id), base64: str(m.audio.data) }, `${path}.audio`, ctx));
  }
  if (typeof m.refusal === "string" && m.refusal && !blocks.some((b) => b.type === "text")) blocks.push({ type: "text", text: m.refusal });
  return out;
}

const CHAT_PARTS = new Set(["image_url", "input_audio", "refusal"]);
const chatSignals = (m: unknown) =>
  isObj(m) &&
  (m.role === "developer" ||
    m.role === "function" ||
    isObj(m.function_call) ||
    isObj(m.audio) ||
    arr(m.tool_calls).some((c) => isObj(c) && (isObj(c.function) || isObj(c.custom))) ||
    arr(m.content).some((p) => isObj(p) && (CHAT_PARTS.has(String(p.type)) || (p.type === "file" && isObj(p.file)))));

export function detectOpenAIChat(inputs: unknown, outputs: unknown): boolean {
  const o = isObj(outputs) ? outputs : {};
  const i = isObj(inputs) ? inputs : {};
  if (typeof o.object === "string" && (o.object.startsWith("chat.completion") || o.object === "text_completion")) return true;
  if (typeof o.id === "string" && o.id.startsWith("chatcmpl")) return true;
  const choices = arr(o.choices);
  if (choices.some((c) => isObj(c) && "finish_reason" in c && (isObj(c.message) || typeof c.text === "string"))) return true;
  if (choices.some((c) => isObj(c) && chatSignals(c.message))) return true;
  if (arr(i.tools).some((t) => isObj(t) && t.type === "function" && isObj(t.function))) return true;
  return arr(i.messages).some(chatSignals);
}

export function readOpenAIChat(inputs: unknown, outputs: unknown, ctx: Ctx): Sides {
  const i = isObj(inputs) ? inputs : {};
  const input = arr(i.messages).flatMap((m, n) => readChatMessage(m, `inputs.messages[${n}]`, ctx));
  if (typeof i.prompt === "string") input.push(located("user", textBlocks(i.prompt), "inputs.prompt"));
  else if (Array.isArray(i.prompt))
    i.prompt.forEach((p, n) => typeof p === "string" && input.push(located("user", textBlocks(p), `inputs.prompt[${n}]`)));
  return { input, output: outputShapes(outputs, ctx, readChatMessage) };
}

// ---- Responses API ----

const RESPONSE_ITEMS = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "item_reference",
]);
const RESPONSE_PARTS = new Set(["input_text", "input_image", "input_file", "output_text"]);
const isServerCall = (t: unknown) => typeof t === "string" && t.endsWith("_call") && t !== "function_call" && t !== "custom_tool_call";
const isResponseItem = (it: unknown) =>
  isObj(it) &&
  (RESPONSE_ITEMS.has(String(it.type)) ||
    isServerCall(it.type) ||
    arr(it.content).some((p) => isObj(p) && RESPONSE_PARTS.has(String(p.type))));

export function detectOpenAIResponses(inputs: unknown, outputs: unknown): boolean {
  const o = isObj(outputs) ? outputs : {};
  const i = isObj(inputs) ? inputs : {};
  if (o.object === "response" || arr(o.output).some(isResponseItem)) return true;
  if (i.messages !== undefined) return false;
  return (
    typeof i.instructions === "string" || arr(i.input).some(isResponseItem) || (typeof i.input === "string" && typeof i.model === "string")
  );
}

/** Output of a server-side tool item (`web_search_call`, `file_search_call`, `code_interpreter_call`, `mcp_call`, ...). */
function serverCallBlocks(it: Obj, path: string, ctx: Ctx): Block[] {
  const type = String(it.type);
  const id = str(it.id) ?? null;
  const name = type === "mcp_call" && typeof it.name === "string" ? it.name : type.slice(0, -"_call".length);
  const args = it.action ?? it.queries ?? it.code ?? (it.arguments !== undefined ? parseArgs(it.arguments, `${path}.arguments`, ctx) : {});
  const blocks: Block[] = [{ type: "server_tool_call", id, name, args }];
  const output = it.results ?? it.outputs ?? it.output ?? it.result;
  const failed = it.status === "failed" || it.status === "incomplete" || typeof it.error === "string";
  if (output !== undefined || typeof it.status === "string") {
    blocks.push({
      type: "server_tool_result",
      toolCallId: id,
      output: output ?? it.error ?? { status: it.status },
      status: failed ? "error" : "success",
    });
  }
  return blocks;
}

/** Responses items in order; consecutive assistant-side items (reasoning, calls, message) form one assistant message. */
function readItems(items: unknown[], base: string, ctx: Ctx): Located[] {
  const out: Located[] = [];
  const assistant = (blocks: Block[], path: string) => {
    const last = out[out.length - 1];
    if (last && last.message.role === "assistant" && !last.message.toolCallId) last.message.blocks.push(...blocks);
    else out.push(located("assistant", blocks, path));
  };
  items.forEach((it, n) => {
    const path = `${base}[${n}]`;
    if (typeof it === "string") return void out.push(located("user", textBlocks(it), path));
    if (!isObj(it)) return void out.push(located("user", [{ type: "json", value: it }], path));
    const type = it.type ?? (typeof it.role === "string" ? "message" : undefined);
    if (type === "message") {
      const [m] = readRoleMessage(it, path, ctx);
      if (m.message.role === "assistant") assistant(m.message.blocks, path);
      else out.push(m);
    } else if (type === "reasoning") {
      const texts = [...arr(it.summary), ...arr(it.content)].flatMap((p, k) =>
        isObj(p) ? (openaiPart(p, `${path}.summary[${k}]`, ctx) ?? []) : [],
      );
      assistant(
        texts.filter((b) => b.type !== "reasoning" || b.text),
        path,
      );
    } else if (type === "function_call" || type === "custom_tool_call") {
      const args = type === "function_call" ? parseArgs(it.arguments, `${path}.arguments`, ctx) : it.input;
      assistant([{ type: "tool_call", id: str(it.call_id) ?? str(it.id) ?? null, name: str(it.name) ?? "", args }], path);
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      out.push(
        located("tool", contentBlocks(it.output, `${path}.output`, ctx), path, {
          toolCallId: it.call_id,
          toolCallIdPath: `${path}.call_id`,
        }),
      );
    } else if (isServerCall(type)) {
      assistant(serverCallBlocks(it, path, ctx), path);
    } else {
      out.push(located(base.startsWith("outputs") ? "assistant" : "user", [{ type: "json", value: it }], path));
    }
  });
  return out.filter((l) => l.message.blocks.length > 0 || l.message.role !== "assistant");
}

export function readOpenAIResponses(inputs: unknown, outputs: unknown, ctx: Ctx): Sides {
  const i = isObj(inputs) ? inputs : {};
  const input: Located[] = [];
  if (typeof i.instructions === "string") input.push(located("system", textBlocks(i.instructions), "inputs.instructions"));
  else if (Array.isArray(i.instructions)) input.push(...readItems(i.instructions, "inputs.instructions", ctx));
  if (typeof i.input === "string") input.push(located("user", textBlocks(i.input), "inputs.input"));
  else if (Array.isArray(i.input)) input.push(...readItems(i.input, "inputs.input", ctx));
  const o = isObj(outputs) ? outputs : null;
  let output: Located[];
  if (o && Array.isArray(o.output)) output = readItems(o.output, "outputs.output", ctx);
  else output = o && isRoleMessage(o) ? outputShapes(outputs, ctx, readRoleMessage) : [];
  return { input, output };
}
