import { isRecord, parsed } from "./attrs";

/**
 * Every convention's messages become OpenAI chat messages, the shape the LLM processing already
 * understands for native runs: `{role, content: string | parts[], tool_calls?, tool_call_id?, name?}`.
 */
export interface ToolCall {
  id?: string;
  type: "function";
  function: { name: string; arguments: string };
}
export type ContentPart = Record<string, unknown> & { type: string };
export interface ChatMessage {
  role: string;
  content: string | ContentPart[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
}
export interface Choice {
  index: number;
  message: ChatMessage;
  finish_reason?: string;
}

const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value ?? null));
const optionalString = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

export function toolCall(id: unknown, name: unknown, args: unknown): ToolCall {
  const parsedArgs = parsed(args);
  return {
    ...(optionalString(id) ? { id: id as string } : {}),
    type: "function",
    function: { name: asText(name ?? ""), arguments: typeof parsedArgs === "string" ? parsedArgs : JSON.stringify(parsedArgs ?? {}) },
  };
}

/** One text part collapses to a string, as most providers send it; anything richer stays a list. */
export function collapse(parts: ContentPart[]): string | ContentPart[] | null {
  if (parts.length === 0) return null;
  if (parts.every((p) => p.type === "text")) return parts.map((p) => String(p.text ?? "")).join("");
  return parts;
}

function mediaPart(modality: unknown, mime: unknown, url: string): ContentPart {
  const kind = typeof modality === "string" ? modality : typeof mime === "string" ? mime.split("/")[0] : "file";
  if (kind === "image") return { type: "image_url", image_url: { url } };
  return { type: "file", file: { file_data: url, ...(typeof mime === "string" ? { mime_type: mime } : {}) } };
}

const dataUri = (mime: unknown, base64: unknown) =>
  `data:${typeof mime === "string" ? mime : "application/octet-stream"};base64,${asText(base64)}`;

/** GenAI semconv messages (`{role, parts: [...]}`), with one tool message per tool_call_response part. */
function fromGenAiMessage(message: Record<string, unknown>): ChatMessage[] {
  if (!Array.isArray(message.parts)) return [fromChatLike(message)];
  const role = asText(message.role ?? "user");
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const toolReplies: ChatMessage[] = [];
  for (const part of message.parts) {
    if (!isRecord(part)) continue;
    switch (part.type) {
      case "text":
        parts.push({ type: "text", text: asText(part.content) });
        break;
      case "reasoning":
        parts.push({ type: "reasoning", reasoning: asText(part.content) });
        break;
      case "tool_call":
        calls.push(toolCall(part.id, part.name, part.arguments));
        break;
      case "tool_call_response":
        toolReplies.push({
          role: "tool",
          content: asText(part.response),
          ...(optionalString(part.id) ? { tool_call_id: part.id as string } : {}),
        });
        break;
      case "blob":
        parts.push(mediaPart(part.modality, part.mime_type, dataUri(part.mime_type, part.content)));
        break;
      case "uri":
        parts.push(mediaPart(part.modality, part.mime_type, asText(part.uri)));
        break;
      default:
        parts.push(part as ContentPart);
    }
  }
  const own: ChatMessage[] =
    parts.length || calls.length || !toolReplies.length
      ? [
          {
            role,
            content: collapse(parts),
            ...(calls.length ? { tool_calls: calls } : {}),
            ...(optionalString(message.name) ? { name: message.name as string } : {}),
          },
        ]
      : [];
  return [...own, ...toolReplies];
}

/** Already chat-shaped (`{role, content}`): tool calls are normalised, OpenLLMetry's flattened `{id, name, arguments}` included. */
export function fromChatLike(message: Record<string, unknown>): ChatMessage {
  const content = parsed(message.content);
  const out: ChatMessage = {
    role: asText(message.role ?? "user"),
    content: Array.isArray(content) ? (content as ContentPart[]) : content === undefined || content === null ? null : asText(content),
  };
  if (Array.isArray(message.tool_calls) && message.tool_calls.length) {
    out.tool_calls = message.tool_calls.filter(isRecord).map((c) => {
      const fn = isRecord(c.function) ? c.function : c;
      return toolCall(c.id, fn.name, fn.arguments ?? fn.args ?? fn.input);
    });
  }
  if (optionalString(message.tool_call_id)) out.tool_call_id = message.tool_call_id as string;
  if (optionalString(message.name)) out.name = message.name as string;
  return out;
}

/** A list in any of the shapes above (structured or a JSON string); undefined when it is not a message list. */
export function toChatMessages(value: unknown): ChatMessage[] | undefined {
  const list = parsed(value);
  if (!Array.isArray(list)) return undefined;
  return list.filter(isRecord).flatMap(fromGenAiMessage);
}

/** `gen_ai.system_instructions`: an array of parts, or plain text. */
export function systemMessage(value: unknown): ChatMessage | undefined {
  const v = parsed(value);
  if (typeof v === "string") return v ? { role: "system", content: v } : undefined;
  if (!Array.isArray(v)) return undefined;
  const [message] = fromGenAiMessage({ role: "system", parts: v });
  return message;
}

/** Output messages become OpenAI choices; a semconv `finish_reason` is kept on its choice. */
export function toChoices(messages: ChatMessage[], finishReasons: (string | undefined)[] = []): { choices: Choice[] } {
  return {
    choices: messages.map((message, index) => ({
      index,
      message,
      ...(finishReasons[index] ? { finish_reason: finishReasons[index] } : {}),
    })),
  };
}

/** Finish reasons carried on semconv output messages, by position. */
export function finishReasonsOf(value: unknown): (string | undefined)[] {
  const list = parsed(value);
  return Array.isArray(list) ? list.map((m) => (isRecord(m) && typeof m.finish_reason === "string" ? m.finish_reason : undefined)) : [];
}
