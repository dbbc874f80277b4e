import type { Block, Diagnostic, MediaSource, Message, MessageRole } from "../conversation-types";

/** Helpers every format adapter shares: the reading context, roles, media, tool-call arguments. */

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A message with where it came from in the run, so diagnostics can point at the source. */
export interface Located {
  message: Message;
  /** e.g. "inputs.messages[3]". */
  path: string;
  /** Where the tool message's call id is, e.g. "inputs.messages[2].content[0].tool_use_id". */
  toolCallIdPath?: string;
}

/** Reads one content part of any known format; null when the part belongs to no reader. */
export type PartReader = (part: Obj, path: string, ctx: Ctx) => Block[] | null;

export interface Ctx {
  diagnostics: Diagnostic[];
  /** Any content part in any known format (so LangChain messages can carry provider blocks). */
  part: (part: unknown, path: string) => Block[];
}

export interface Sides {
  input: Located[];
  output: Located[];
}

export const diag = (ctx: Ctx, path: string, message: string) => {
  ctx.diagnostics.push({ path, message });
};

const ROLES: Record<string, MessageRole> = {
  system: "system",
  developer: "system",
  user: "user",
  human: "user",
  assistant: "assistant",
  ai: "assistant",
  model: "assistant",
  tool: "tool",
  function: "tool",
  reasoning: "reasoning",
};

/** A role in any spelling the formats use; an unknown role is diagnosed and shown as "user". */
export function roleOf(raw: unknown, path: string, ctx: Ctx): MessageRole {
  const role = typeof raw === "string" ? ROLES[raw.toLowerCase()] : undefined;
  if (role) return role;
  diag(ctx, path, `Unknown role ${JSON.stringify(raw ?? null)}: expected one of system, reasoning, user, assistant, tool; shown as user.`);
  return "user";
}

/** Tool-call arguments: objects as they are, JSON strings parsed; invalid JSON is diagnosed and kept as the string. */
export function parseArgs(raw: unknown, path: string, ctx: Ctx): unknown {
  if (typeof raw !== "string") return raw ?? {};
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch (e) {
    diag(ctx, path, `Tool call arguments are not valid JSON (${(e as Error).message}); shown as the raw string.`);
    return raw;
  }
}

/** `data:<mime>;base64,<data>` split into its parts; null for any other URL. */
export function dataUrl(url: string): { base64: string; mimeType?: string } | null {
  const m = /^data:([^;,]*)(?:;[^;,]*)*?;base64,(.*)$/s.exec(url);
  if (!m) return null;
  return { base64: m[2], ...(m[1] ? { mimeType: m[1] } : {}) };
}

/** A media source from a URL that may be a data URL. */
export function fromUrl(url: string | undefined, mimeType?: string): MediaSource {
  const data = url ? dataUrl(url) : null;
  if (data) return { base64: data.base64, mimeType: data.mimeType ?? mimeType };
  return { url, mimeType };
}

export type MediaKind = "image" | "audio" | "video" | "file";

/** The media kind a MIME type names (image/audio/video), else file. */
export function kindOfMime(mime: string | undefined): MediaKind {
  const top = mime?.split("/")[0];
  return top === "image" || top === "audio" || top === "video" ? top : "file";
}

/** A media block; one with neither url, base64 nor id is diagnosed (it cannot be shown). */
export function media(kind: MediaKind, source: MediaSource, path: string, ctx: Ctx, name?: string): Block {
  const clean: MediaSource = {};
  if (typeof source.url === "string" && source.url) clean.url = source.url;
  if (typeof source.base64 === "string" && source.base64) clean.base64 = source.base64;
  if (typeof source.id === "string" && source.id) clean.id = source.id;
  if (typeof source.mimeType === "string" && source.mimeType) clean.mimeType = source.mimeType;
  if (!clean.url && !clean.base64 && !clean.id)
    diag(ctx, path, `The ${kind} block has neither url, base64 nor id, so there is nothing to show.`);
  return typeof name === "string" && name ? { type: kind, source: clean, name } : { type: kind, source: clean };
}

/** String content as blocks: one text block, none for an empty string. */
export const textBlocks = (text: string): Block[] => (text ? [{ type: "text", text }] : []);

/** Content that is a string or a list of parts, read with the context's part reader. */
export function contentBlocks(content: unknown, path: string, ctx: Ctx): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return textBlocks(content);
  if (Array.isArray(content)) return content.flatMap((p, i) => ctx.part(p, `${path}[${i}]`));
  return ctx.part(content, path);
}

/** The ids of the tool calls already in a block list (to avoid listing one call twice). */
export const toolCallIds = (blocks: Block[]) => new Set(blocks.flatMap((b) => (b.type === "tool_call" && b.id ? [b.id] : [])));

/** `{id?, name, args}` or OpenAI `{id, function: {name, arguments}}` tool calls as blocks. */
export function toolCallBlocks(calls: unknown, path: string, ctx: Ctx, skip = new Set<string>()): Block[] {
  const out: Block[] = [];
  arr(calls).forEach((c, i) => {
    if (!isObj(c)) return;
    const id = str(c.id) ?? str(c.call_id) ?? null;
    if (id && skip.has(id)) return;
    if (isObj(c.function)) {
      out.push({
        type: "tool_call",
        id,
        name: str(c.function.name) ?? "",
        args: parseArgs(c.function.arguments, `${path}[${i}].function.arguments`, ctx),
      });
    } else if (isObj(c.custom)) {
      out.push({ type: "tool_call", id, name: str(c.custom.name) ?? "", args: c.custom.input ?? "" });
    } else {
      const args = "args" in c ? c.args : c.arguments;
      out.push({
        type: "tool_call",
        id,
        name: str(c.name) ?? "",
        args: parseArgs(args, `${path}[${i}].${"args" in c ? "args" : "arguments"}`, ctx),
      });
    }
  });
  return out;
}

/** Builds a located message. */
export function located(
  role: MessageRole,
  blocks: Block[],
  path: string,
  extra: { name?: unknown; toolCallId?: unknown; toolCallIdPath?: string } = {},
): Located {
  const message: Message = { role, blocks };
  if (typeof extra.name === "string" && extra.name) message.name = extra.name;
  if (typeof extra.toolCallId === "string" && extra.toolCallId) message.toolCallId = extra.toolCallId;
  const out: Located = { message, path };
  if (message.toolCallId) out.toolCallIdPath = extra.toolCallIdPath ?? `${path}.tool_call_id`;
  return out;
}

/** Looks like a chat message: an object with a string role and a content key (or tool calls). */
export const isRoleMessage = (m: unknown): m is Obj => isObj(m) && typeof m.role === "string" && ("content" in m || "tool_calls" in m);
