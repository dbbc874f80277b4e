import { toConversation } from "../llm/conversation";
import type { Message } from "../llm/conversation-types";

/** Longest preview kept: one line of the runs table, with room to spare. */
export const PREVIEW_CHARS = 200;

/** Keys whose string value is what a run is about, in the order they are preferred. */
const SPEAKING_KEYS = ["question", "query", "input", "prompt", "text", "answer", "output", "result", "content", "response"];

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * The text on one line, cut at PREVIEW_CHARS. A long text is collapsed from a head twice the
 * preview's length, which gives the same preview whenever that head still fills it.
 */
const oneLine = (text: string) => {
  const head = text.length > 2 * PREVIEW_CHARS ? collapse(text.slice(0, 2 * PREVIEW_CHARS)) : null;
  const line = head !== null && head.length > PREVIEW_CHARS ? head : collapse(text);
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
};

function messageText(message: Message): string {
  const parts = message.blocks.map((b) =>
    b.type === "text" ? b.text : b.type === "tool_call" ? `${b.name}(${compactJson(b.args, 80)})` : b.type === "image" ? "[image]" : "",
  );
  return parts.filter(Boolean).join(" ");
}

/** The text of the last entry of a `messages` list a chain returned in its own shape, if it has one. */
function lastMessageContent(messages: unknown): string | null {
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  if (typeof last === "string") return last;
  const content = (last as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const text = content
      .map((p) => (typeof p === "string" ? p : typeof (p as { text?: unknown })?.text === "string" ? (p as { text: string }).text : ""))
      .filter(Boolean)
      .join(" ");
    return text || null;
  }
  return null;
}

/** JSON on one line, cut at `budget` characters without serializing the rest. */
function compactJson(value: unknown, budget = PREVIEW_CHARS): string {
  let out = "";
  const emit = (v: unknown, depth: number): void => {
    if (out.length > budget) return;
    if (v === null || typeof v !== "object") {
      out += typeof v === "string" ? JSON.stringify(v.length > budget ? v.slice(0, budget) : v) : String(JSON.stringify(v) ?? null);
      return;
    }
    if (depth > 20) {
      out += "…";
      return;
    }
    const entries = Array.isArray(v) ? v.map((x) => [null, x] as const) : Object.entries(v);
    out += Array.isArray(v) ? "[" : "{";
    entries.forEach(([k, x], i) => {
      if (out.length > budget) return;
      if (i) out += ", ";
      if (k !== null) out += `${JSON.stringify(k)}: `;
      emit(x, depth + 1);
    });
    out += Array.isArray(v) ? "]" : "}";
  };
  emit(value, 0);
  return out;
}

/**
 * What a run's inputs or outputs say, as text: for messages (any format the conversation view
 * reads), the last user message of the inputs or the final answer of the outputs; a lone speaking
 * string (`question`, `answer`, ...) as itself; otherwise compact JSON (up to `budget` characters).
 */
export function spokenText(value: unknown, side: "input" | "output", budget = 4_000): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value !== "object") return String(value);
  const conversation = toConversation(
    side === "input" ? { run_type: "llm", inputs: value, outputs: undefined } : { run_type: "llm", inputs: undefined, outputs: value },
  );
  const messages = side === "input" ? conversation.input : conversation.output;
  const wanted = side === "input" ? "user" : "assistant";
  const message = [...messages].reverse().find((m) => m.role === wanted) ?? messages.at(-1);
  const spoken = message ? messageText(message) : "";
  if (spoken) return spoken;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0) return null;
  const said = lastMessageContent(record.messages);
  if (said) return said;
  const speaking =
    SPEAKING_KEYS.find((k) => typeof record[k] === "string") ??
    (keys.length === 1 && typeof record[keys[0]!] === "string" ? keys[0] : undefined);
  return speaking ? (record[speaking] as string) : compactJson(value, budget);
}

/** `spokenText` as one short line: the runs table's input and output previews. */
export function previewOf(value: unknown, side: "input" | "output"): string | null {
  const text = spokenText(value, side, PREVIEW_CHARS);
  return text === null ? null : oneLine(text) || null;
}
