import type { Block } from "../conversation-types";
import {
  arr,
  contentBlocks,
  diag,
  isObj,
  isRoleMessage,
  located,
  media,
  parseArgs,
  roleOf,
  str,
  toolCallBlocks,
  toolCallIds,
  type Ctx,
  type Located,
  type MediaKind,
  type Obj,
  type Sides,
} from "./common";

/**
 * The contract's native message-list format (LangChain v1 standard content blocks):
 * `{messages: [{role, content: string | [{type, ...}], tool_calls?, tool_call_id?}]}`. Also reads the
 * LangChain JS spellings (`mimeType`, `fileId`, `data`, `server_tool_call_result`/`toolCallId`) and
 * the legacy v0 media blocks (`source_type`).
 */

export const NATIVE_TYPES = new Set([
  "text",
  "reasoning",
  "image",
  "file",
  "audio",
  "video",
  "text-plain",
  "tool_call",
  "tool_call_chunk",
  "invalid_tool_call",
  "server_tool_call",
  "server_tool_call_chunk",
  "server_tool_result",
  "server_tool_call_result",
  "non_standard",
]);
const MEDIA = new Set(["image", "file", "audio", "video"]);

/** One native content element; null when the element is not native (e.g. an Anthropic `image` with `source`). */
export function nativePart(p: Obj, path: string, ctx: Ctx): Block[] | null {
  const type = p.type;
  if (typeof type !== "string" || !NATIVE_TYPES.has(type)) return null;
  switch (type) {
    case "text":
      return [{ type: "text", text: str(p.text) ?? "" }];
    case "reasoning":
      return [{ type: "reasoning", text: str(p.text) ?? str(p.reasoning) ?? "" }];
    case "text-plain":
      if (typeof p.text === "string") return [{ type: "text", text: p.text }];
      return [
        media(
          "file",
          { url: str(p.url), base64: str(p.base64), id: str(p.id) ?? str(p.file_id), mimeType: "text/plain" },
          path,
          ctx,
          str(p.title),
        ),
      ];
    case "tool_call":
    case "tool_call_chunk":
    case "invalid_tool_call":
      return [{ type: "tool_call", id: str(p.id) ?? null, name: str(p.name) ?? "", args: parseArgs(p.args, `${path}.args`, ctx) }];
    case "server_tool_call":
    case "server_tool_call_chunk":
      return [{ type: "server_tool_call", id: str(p.id) ?? null, name: str(p.name) ?? "", args: parseArgs(p.args, `${path}.args`, ctx) }];
    case "server_tool_result":
    case "server_tool_call_result": {
      const status = p.status === "success" || p.status === "error" ? p.status : undefined;
      return [
        {
          type: "server_tool_result",
          toolCallId: str(p.tool_call_id) ?? str(p.toolCallId) ?? null,
          output: p.output,
          ...(status ? { status } : {}),
        },
      ];
    }
    case "non_standard":
      return [{ type: "json", value: p.value }];
  }
  // image | file | audio | video
  if (isObj(p.source) || isObj(p.file) || !MEDIA.has(type)) return null; // Anthropic / OpenAI shapes of the same names
  const mimeType = str(p.mime_type) ?? str(p.mimeType);
  const name = str(p.filename) ?? str(p.name) ?? str(p.title) ?? (isObj(p.extras) ? str(p.extras.filename) : undefined);
  if (typeof p.source_type === "string") {
    if (p.source_type === "text") return [{ type: "text", text: str(p.text) ?? str(p.data) ?? "" }];
    const v = p.source_type;
    return [
      media(
        type as MediaKind,
        {
          url: v === "url" ? str(p.url) : undefined,
          base64: v === "base64" ? str(p.data) : undefined,
          id: v === "id" ? str(p.id) : undefined,
          mimeType,
        },
        path,
        ctx,
        name,
      ),
    ];
  }
  return [
    media(
      type as MediaKind,
      {
        url: str(p.url),
        base64: str(p.base64) ?? str(p.data),
        id: str(p.id) ?? str(p.file_id) ?? str(p.fileId),
        mimeType,
      },
      path,
      ctx,
      name,
    ),
  ];
}

/**
 * One message given as `{role, content, tool_calls?, tool_call_id?, name?}` or as a `[role, content]`
 * pair. Content parts of any known format are read (through ctx.part); tool calls in the LangChain
 * `{id, name, args}` or the OpenAI `{id, function: {name, arguments}}` form.
 */
export function readRoleMessage(m: unknown, path: string, ctx: Ctx): Located[] {
  if (Array.isArray(m) && m.length === 2 && typeof m[0] === "string") {
    return [located(roleOf(m[0], `${path}[0]`, ctx), contentBlocks(m[1], `${path}[1]`, ctx), path)];
  }
  if (typeof m === "string") return [located("user", contentBlocks(m, path, ctx), path)];
  if (!isObj(m)) return [located("user", [{ type: "json", value: m }], path)];
  const role = roleOf(m.role, `${path}.role`, ctx);
  const blocks = contentBlocks(m.content, `${path}.content`, ctx);
  if (role === "assistant" || m.tool_calls) blocks.push(...toolCallBlocks(m.tool_calls, `${path}.tool_calls`, ctx, toolCallIds(blocks)));
  const toolCallId = str(m.tool_call_id);
  if (toolCallId && role !== "tool")
    diag(ctx, `${path}.tool_call_id`, `tool_call_id is only valid on a tool message, and this message's role is ${role}.`);
  return [located(role, blocks, path, { name: m.name, toolCallId: role === "tool" ? toolCallId : undefined })];
}

const hasNativeContent = (m: unknown) =>
  isObj(m) &&
  ((Array.isArray(m.content) &&
    m.content.some((p) => isObj(p) && typeof p.type === "string" && NATIVE_TYPES.has(p.type) && !isObj(p.source) && !isObj(p.file))) ||
    arr(m.tool_calls).some((c) => isObj(c) && "args" in c) ||
    m.role === "reasoning");

/** Native: `inputs.messages` are role messages, and some message (in or out) carries native typed content or tool calls. */
export function detectNative(inputs: unknown, outputs: unknown): boolean {
  const list = isObj(inputs) ? inputs.messages : undefined;
  if (!Array.isArray(list) || !list.some(isRoleMessage)) return false;
  const outs = isObj(outputs)
    ? [outputs, outputs.message, ...arr(outputs.messages), ...arr(outputs.choices).map((c) => (isObj(c) ? c.message : c))]
    : [];
  return (
    list.some((m) => hasNativeContent(m) || (isObj(m) && isObj(m.usage_metadata))) ||
    outs.some(hasNativeContent) ||
    (isObj(outputs) && Array.isArray(outputs.messages))
  );
}

export function readNative(inputs: unknown, outputs: unknown, ctx: Ctx): Sides {
  const list = isObj(inputs) ? arr(inputs.messages) : [];
  return {
    input: list.flatMap((m, i) => readRoleMessage(m, `inputs.messages[${i}]`, ctx)),
    output: outputShapes(outputs, ctx, readRoleMessage),
  };
}

type MessageReader = (m: unknown, path: string, ctx: Ctx) => Located[];

/**
 * The contract's output shapes: `{messages: [...]}`, `{choices: [{message}]}`, `{message}`, a bare
 * `{role, content}`, or a `[role, content]` pair; an array result wrapped by the SDK as
 * `{outputs: ...}` is unwrapped first. A bare string is the assistant's text.
 */
export function outputShapes(outputs: unknown, ctx: Ctx, read: MessageReader, path = "outputs"): Located[] {
  if (outputs === null || outputs === undefined) return [];
  if (typeof outputs === "string") return [located("assistant", contentBlocks(outputs, path, ctx), path)];
  if (Array.isArray(outputs)) {
    if (outputs.length === 2 && typeof outputs[0] === "string" && !isRoleMessage(outputs[1])) return read(outputs, path, ctx);
    return outputs.flatMap((m, i) => read(m, `${path}[${i}]`, ctx));
  }
  if (!isObj(outputs)) return [];
  if ("outputs" in outputs && path === "outputs" && Object.keys(outputs).every((k) => k === "outputs" || k === "usage_metadata"))
    return outputShapes(outputs.outputs, ctx, read, "outputs.outputs");
  if (Array.isArray(outputs.messages)) return outputs.messages.flatMap((m, i) => read(m, `${path}.messages[${i}]`, ctx));
  if (Array.isArray(outputs.choices)) {
    return outputs.choices.flatMap((c, i) => {
      if (isObj(c) && c.message !== undefined) return read(c.message, `${path}.choices[${i}].message`, ctx);
      if (isObj(c) && typeof c.text === "string")
        return [located("assistant", contentBlocks(c.text, `${path}.choices[${i}].text`, ctx), `${path}.choices[${i}]`)];
      return [];
    });
  }
  if (outputs.message !== undefined && (isObj(outputs.message) || Array.isArray(outputs.message)))
    return read(outputs.message, `${path}.message`, ctx);
  if (isRoleMessage(outputs)) return read(outputs, path, ctx);
  return [];
}
