import type { Block } from "../conversation-types";
import {
  arr,
  isObj,
  kindOfMime,
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
import { outputShapes, readRoleMessage } from "./native";

/**
 * Google Gemini (`@google/genai` and the REST API): `contents: Content[]` (or a string, or parts) with
 * `Content = {role: "user" | "model", parts}`, `systemInstruction` at the top level or under `config`;
 * outputs `candidates[].content`. Fields in camelCase (REST/JS) or snake_case (Python logs).
 */

const pick = (o: Obj, camel: string, snake: string) => o[camel] ?? o[snake];

/** One Part (other than functionResponse, which the content reader splits out); null when not a Gemini part. */
export function geminiPart(p: Obj, path: string, ctx: Ctx): Block[] | null {
  if ("type" in p) return null;
  if (typeof p.text === "string") return [p.thought === true ? { type: "reasoning", text: p.text } : { type: "text", text: p.text }];
  const inline = pick(p, "inlineData", "inline_data");
  if (isObj(inline)) {
    const mimeType = str(pick(inline, "mimeType", "mime_type"));
    return [
      media(
        kindOfMime(mimeType),
        { base64: str(inline.data), mimeType },
        `${path}.inlineData`,
        ctx,
        str(pick(inline, "displayName", "display_name")),
      ),
    ];
  }
  const file = pick(p, "fileData", "file_data");
  if (isObj(file)) {
    const mimeType = str(pick(file, "mimeType", "mime_type"));
    return [
      media(
        kindOfMime(mimeType),
        { url: str(pick(file, "fileUri", "file_uri")), mimeType },
        `${path}.fileData`,
        ctx,
        str(pick(file, "displayName", "display_name")),
      ),
    ];
  }
  const call = pick(p, "functionCall", "function_call");
  if (isObj(call))
    return [
      {
        type: "tool_call",
        id: str(call.id) ?? null,
        name: str(call.name) ?? "",
        args: parseArgs(call.args, `${path}.functionCall.args`, ctx),
      },
    ];
  const code = pick(p, "executableCode", "executable_code");
  if (isObj(code)) return [{ type: "server_tool_call", id: null, name: "code_execution", args: code }];
  const result = pick(p, "codeExecutionResult", "code_execution_result");
  if (isObj(result)) {
    const ok = result.outcome === undefined || result.outcome === "OUTCOME_OK";
    return [{ type: "server_tool_result", toolCallId: null, output: result, status: ok ? "success" : "error" }];
  }
  return null;
}

const isContent = (c: unknown): c is Obj => isObj(c) && Array.isArray(c.parts);

/** One Content; functionResponse parts become tool messages (named after the function, linked by id when given). */
function readContent(c: Obj, path: string, ctx: Ctx, fallbackRole: string): Located[] {
  const role = roleOf(c.role ?? fallbackRole, `${path}.role`, ctx);
  const out: Located[] = [];
  let pending: Block[] = [];
  const flush = () => {
    if (pending.length) out.push(located(role, pending, path));
    pending = [];
  };
  arr(c.parts).forEach((p, i) => {
    const at = `${path}.parts[${i}]`;
    const response = isObj(p) ? pick(p, "functionResponse", "function_response") : undefined;
    if (isObj(response)) {
      flush();
      const body = response.response;
      const blocks = body === undefined ? [] : typeof body === "string" ? textBlocks(body) : textBlocks(JSON.stringify(body));
      out.push(located("tool", blocks, at, { name: response.name, toolCallId: response.id, toolCallIdPath: `${at}.functionResponse.id` }));
    } else {
      pending.push(...ctx.part(p, at));
    }
  });
  flush();
  return out.length ? out : [located(role, [], path)];
}

/** ContentListUnion: a string, a Content, a list of Contents, or parts (which make one user Content). */
function readContents(contents: unknown, path: string, ctx: Ctx, role: string): Located[] {
  if (typeof contents === "string") return [located(role === "user" ? "user" : roleOf(role, path, ctx), textBlocks(contents), path)];
  if (isContent(contents)) return readContent(contents, path, ctx, role);
  if (!Array.isArray(contents)) return isObj(contents) ? readContent({ parts: [contents] }, path, ctx, role) : [];
  if (contents.some(isContent)) {
    return contents.flatMap((c, i) =>
      isContent(c) ? readContent(c, `${path}[${i}]`, ctx, role) : readContents(c, `${path}[${i}]`, ctx, role),
    );
  }
  return readContent({ parts: contents }, path, ctx, role).map((l) => ({ ...l, path: l.path.replace(`${path}.parts`, path) }));
}

function systemOf(i: Obj): { value: unknown; path: string } | null {
  const config = isObj(i.config) ? i.config : {};
  for (const [value, path] of [
    [i.systemInstruction, "inputs.systemInstruction"],
    [i.system_instruction, "inputs.system_instruction"],
    [config.systemInstruction, "inputs.config.systemInstruction"],
    [config.system_instruction, "inputs.config.system_instruction"],
  ] as const)
    if (value !== undefined && value !== null) return { value, path };
  return null;
}

export function detectGemini(inputs: unknown, outputs: unknown): boolean {
  const i = isObj(inputs) ? inputs : {};
  return i.contents !== undefined || systemOf(i) !== null || (isObj(outputs) && Array.isArray(outputs.candidates));
}

export function readGemini(inputs: unknown, outputs: unknown, ctx: Ctx): Sides {
  const i = isObj(inputs) ? inputs : {};
  const input: Located[] = [];
  const system = systemOf(i);
  if (system)
    input.push(
      ...readContents(system.value, system.path, ctx, "system").map((l) => ({ ...l, message: { ...l.message, role: "system" as const } })),
    );
  input.push(...readContents(i.contents, "inputs.contents", ctx, "user"));
  let output: Located[] = [];
  if (isObj(outputs) && Array.isArray(outputs.candidates)) {
    outputs.candidates.forEach((c, n) => {
      if (isObj(c) && isContent(c.content)) output.push(...readContent(c.content, `outputs.candidates[${n}].content`, ctx, "model"));
    });
  } else {
    output = outputShapes(outputs, ctx, readRoleMessage);
  }
  return { input, output };
}
