import type { Block, MessageRole } from "../conversation-types";
import {
  arr,
  contentBlocks,
  diag,
  isObj,
  located,
  parseArgs,
  roleOf,
  str,
  textBlocks,
  toolCallBlocks,
  toolCallIds,
  type Ctx,
  type Located,
  type Obj,
  type Sides,
} from "./common";
import { outputShapes, readRoleMessage } from "./native";

/**
 * LangChain-serialized messages, as the LangChain tracers send chat model runs:
 * `inputs.messages` as a list of lists (one list per prompt) of messages in the constructor form
 * `{lc: 1, type: "constructor", id: [..., "HumanMessage"], kwargs: {content, tool_calls, tool_call_id,
 * additional_kwargs, ...}}`, the dict forms `{type: "human", content}` / `{type: "human", data: {...}}`,
 * or `{role, content}`; outputs as `generations[][]` of `{text, message}`. Completion-model runs send
 * `inputs.prompts` (strings). Content may hold any provider's blocks (ChatAnthropic, ChatOpenAI, v1).
 */

const TYPE_ROLES: Record<string, MessageRole | "chat"> = {
  human: "user",
  ai: "assistant",
  system: "system",
  developer: "system",
  tool: "tool",
  function: "tool",
  chat: "chat",
  remove: "system",
};

const isLc = (m: unknown): m is Obj => isObj(m) && m.lc === 1 && m.type === "constructor" && Array.isArray(m.id);
/** "AIMessageChunk" -> "ai", "HumanMessage" -> "human", "human" -> "human". */
const typeKey = (t: string) => t.replace(/(Message)?(Chunk)?$/, "").toLowerCase();
const isTyped = (m: unknown): m is Obj =>
  isObj(m) && typeof m.type === "string" && typeKey(m.type) in TYPE_ROLES && ("content" in m || isObj(m.data));
export const isLangChainMessage = (m: unknown) => isLc(m) || isTyped(m);

/** One LangChain message in any of its serialized forms. */
export function readLangChainMessage(m: unknown, path: string, ctx: Ctx): Located[] {
  let fields: Obj;
  let at: string;
  let kind: string;
  if (isLc(m)) {
    fields = isObj(m.kwargs) ? m.kwargs : {};
    at = `${path}.kwargs`;
    const id = m.id as unknown[];
    kind = String(id[id.length - 1]);
  } else if (isTyped(m)) {
    fields = isObj(m.data) ? m.data : m;
    at = isObj(m.data) ? `${path}.data` : path;
    kind = String(m.type);
  } else {
    return readRoleMessage(m, path, ctx);
  }
  const mapped = TYPE_ROLES[typeKey(kind)];
  const role: MessageRole =
    mapped === "chat" ? roleOf(fields.role, `${at}.role`, ctx) : (mapped ?? roleOf(kind, isLc(m) ? `${path}.id` : `${path}.type`, ctx));
  const blocks: Block[] = contentBlocks(fields.content, `${at}.content`, ctx);
  const extra = isObj(fields.additional_kwargs) ? fields.additional_kwargs : {};
  if (role === "assistant") {
    if (typeof extra.reasoning_content === "string" && extra.reasoning_content)
      blocks.unshift({ type: "reasoning", text: extra.reasoning_content });
    const have = toolCallIds(blocks);
    if (Array.isArray(fields.tool_calls) && fields.tool_calls.length) {
      blocks.push(...toolCallBlocks(fields.tool_calls, `${at}.tool_calls`, ctx, have));
    } else {
      blocks.push(...toolCallBlocks(extra.tool_calls, `${at}.additional_kwargs.tool_calls`, ctx, have));
    }
    arr(fields.invalid_tool_calls).forEach((c, i) => {
      if (!isObj(c)) return;
      const p = `${at}.invalid_tool_calls[${i}]`;
      diag(ctx, p, `The model produced an invalid tool call${typeof c.error === "string" ? `: ${c.error}` : ""}.`);
      blocks.push({ type: "tool_call", id: str(c.id) ?? null, name: str(c.name) ?? "", args: c.args ?? {} });
    });
    if (isObj(extra.function_call)) {
      blocks.push({
        type: "tool_call",
        id: null,
        name: str(extra.function_call.name) ?? "",
        args: parseArgs(extra.function_call.arguments, `${at}.additional_kwargs.function_call.arguments`, ctx),
      });
    }
  }
  return [
    located(role, blocks, path, {
      name: fields.name,
      toolCallId: role === "tool" ? fields.tool_call_id : undefined,
      toolCallIdPath: `${at}.tool_call_id`,
    }),
  ];
}

/** `messages` as a list of lists (or a flat list), each entry located by its own path. */
function messageList(value: unknown, base: string, ctx: Ctx): Located[] {
  return arr(value).flatMap((m, i) =>
    Array.isArray(m) && !(m.length === 2 && typeof m[0] === "string")
      ? m.flatMap((inner, j) => readLangChainMessage(inner, `${base}[${i}][${j}]`, ctx))
      : readLangChainMessage(m, `${base}[${i}]`, ctx),
  );
}

export function detectLangChain(inputs: unknown, outputs: unknown): boolean {
  const i = isObj(inputs) ? inputs : {};
  const o = isObj(outputs) ? outputs : {};
  if (Array.isArray(o.generations)) return true;
  if (Array.isArray(i.prompts) && i.prompts.every((p) => typeof p === "string")) return true;
  const msgs = arr(i.messages);
  if (msgs.some((m) => Array.isArray(m) && m.some((x) => isObj(x)))) return true;
  if (msgs.some(isLangChainMessage) || arr(o.messages).some(isLangChainMessage)) return true;
  return isLangChainMessage(outputs) || isLangChainMessage(o.output);
}

export function readLangChain(inputs: unknown, outputs: unknown, ctx: Ctx): Sides {
  const i = isObj(inputs) ? inputs : {};
  const input = messageList(i.messages, "inputs.messages", ctx);
  arr(i.prompts).forEach((p, n) => typeof p === "string" && input.push(located("user", textBlocks(p), `inputs.prompts[${n}]`)));
  const o = isObj(outputs) ? outputs : {};
  let output: Located[];
  if (Array.isArray(o.generations)) {
    const entries: [unknown, string][] = o.generations.flatMap((g, n): [unknown, string][] =>
      Array.isArray(g) ? g.map((x, k): [unknown, string] => [x, `outputs.generations[${n}][${k}]`]) : [[g, `outputs.generations[${n}]`]],
    );
    output = entries.flatMap(([g, at]) => {
      if (isObj(g) && g.message !== undefined) return readLangChainMessage(g.message, `${at}.message`, ctx);
      if (isObj(g) && typeof g.text === "string") return [located("assistant", textBlocks(g.text), at)];
      return [];
    });
  } else if (isLangChainMessage(outputs)) {
    output = readLangChainMessage(outputs, "outputs", ctx);
  } else if (isLangChainMessage(o.output)) {
    output = readLangChainMessage(o.output, "outputs.output", ctx);
  } else {
    output = outputShapes(outputs, ctx, readLangChainMessage);
  }
  return { input, output };
}
