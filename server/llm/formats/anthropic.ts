import type { Block } from "../conversation-types";
import {
  arr,
  contentBlocks,
  isObj,
  located,
  media,
  parseArgs,
  roleOf,
  str,
  textBlocks,
  type Ctx,
  type Located,
  type Obj,
  type Sides,
} from "./common";

/**
 * Anthropic Messages, as `wrapAnthropic` sends them: the request (`system` at the top level, string or
 * text blocks; `messages` with string or block content) as inputs, the response Message (without its
 * `type`, usage moved to usage_metadata) as outputs. `tool_result` blocks inside a user message become
 * tool messages of their own, in place.
 */

function source(s: Obj) {
  if (s.type === "base64") return { base64: str(s.data), mimeType: str(s.media_type) };
  if (s.type === "url") return { url: str(s.url), mimeType: str(s.media_type) };
  if (s.type === "file") return { id: str(s.file_id) };
  return { url: str(s.url), base64: str(s.data), id: str(s.file_id), mimeType: str(s.media_type) };
}

const resultStatus = (b: Obj): "success" | "error" =>
  b.is_error === true || (isObj(b.content) && typeof b.content.type === "string" && b.content.type.endsWith("_error"))
    ? "error"
    : "success";

/** One Anthropic content block (other than `tool_result`, which the message reader splits out); null when not Anthropic's. */
export function anthropicPart(b: Obj, path: string, ctx: Ctx): Block[] | null {
  const type = b.type;
  if (typeof type !== "string") return null;
  switch (type) {
    case "image":
      return isObj(b.source) ? [media("image", source(b.source), `${path}.source`, ctx)] : null;
    case "document": {
      const s = isObj(b.source) ? b.source : {};
      if (s.type === "text") return textBlocks(str(s.data) ?? "");
      if (s.type === "content") return contentBlocks(s.content, `${path}.source.content`, ctx);
      return [
        media(
          "file",
          { ...source(s), mimeType: str(s.media_type) ?? (s.type === "url" ? "application/pdf" : undefined) },
          `${path}.source`,
          ctx,
          str(b.title),
        ),
      ];
    }
    case "thinking":
      return [{ type: "reasoning", text: str(b.thinking) ?? "" }];
    case "redacted_thinking":
      return [{ type: "reasoning", text: "[redacted thinking]" }];
    case "tool_use":
      return [{ type: "tool_call", id: str(b.id) ?? null, name: str(b.name) ?? "", args: parseArgs(b.input, `${path}.input`, ctx) }];
    case "server_tool_use":
    case "mcp_tool_use":
      return [{ type: "server_tool_call", id: str(b.id) ?? null, name: str(b.name) ?? "", args: b.input ?? {} }];
    case "container_upload":
      return [media("file", { id: str(b.file_id) }, path, ctx)];
  }
  if (type !== "tool_result" && type.endsWith("_tool_result")) {
    return [{ type: "server_tool_result", toolCallId: str(b.tool_use_id) ?? null, output: b.content, status: resultStatus(b) }];
  }
  return null;
}

/** One MessageParam; `tool_result` blocks become tool messages and the blocks around them stay in order. */
export function readAnthropicMessage(m: unknown, path: string, ctx: Ctx): Located[] {
  if (!isObj(m)) return [located("user", [{ type: "json", value: m }], path)];
  const role = roleOf(m.role, `${path}.role`, ctx);
  if (!Array.isArray(m.content)) return [located(role, contentBlocks(m.content, `${path}.content`, ctx), path)];
  const out: Located[] = [];
  let pending: Block[] = [];
  const flush = () => {
    if (pending.length) out.push(located(role, pending, path));
    pending = [];
  };
  m.content.forEach((b, i) => {
    const at = `${path}.content[${i}]`;
    if (isObj(b) && b.type === "tool_result") {
      flush();
      out.push(
        located("tool", contentBlocks(b.content, `${at}.content`, ctx), at, {
          toolCallId: b.tool_use_id,
          toolCallIdPath: `${at}.tool_use_id`,
        }),
      );
    } else {
      pending.push(...ctx.part(b, at));
    }
  });
  flush();
  return out.length ? out : [located(role, [], path)];
}

export const ANTHROPIC_BLOCKS = new Set([
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "server_tool_use",
  "mcp_tool_use",
  "document",
  "search_result",
  "container_upload",
]);
const anthropicBlock = (b: unknown) =>
  isObj(b) &&
  typeof b.type === "string" &&
  (ANTHROPIC_BLOCKS.has(b.type) || b.type.endsWith("_tool_result") || (b.type === "image" && isObj(b.source)));

export function detectAnthropic(inputs: unknown, outputs: unknown): boolean {
  const i = isObj(inputs) ? inputs : {};
  const o = isObj(outputs) ? outputs : {};
  if (o.type === "message" || "stop_reason" in o || (typeof o.id === "string" && o.id.startsWith("msg_"))) return true;
  if (arr(o.content).some(anthropicBlock)) return true;
  const messages = arr(i.messages);
  if (!messages.length && !("system" in i)) return false;
  if (typeof i.system === "string" || Array.isArray(i.system)) return true;
  if (arr(i.tools).some((t) => isObj(t) && "input_schema" in t)) return true;
  return messages.some((m) => isObj(m) && arr(m.content).some(anthropicBlock));
}

export function readAnthropic(inputs: unknown, outputs: unknown, ctx: Ctx): Sides {
  const i = isObj(inputs) ? inputs : {};
  const input: Located[] = [];
  if (typeof i.system === "string") input.push(located("system", textBlocks(i.system), "inputs.system"));
  else if (Array.isArray(i.system)) input.push(located("system", contentBlocks(i.system, "inputs.system", ctx), "inputs.system"));
  arr(i.messages).forEach((m, n) => input.push(...readAnthropicMessage(m, `inputs.messages[${n}]`, ctx)));
  const output = isObj(outputs) && "content" in outputs ? readAnthropicMessage({ role: "assistant", ...outputs }, "outputs", ctx) : [];
  return { input, output };
}
