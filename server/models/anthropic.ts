import type { ChatMessage, ChatRequest } from "./types";

type Block = Record<string, unknown>;

/** OpenAI content parts as Anthropic blocks: text, and images by URL or data URL. */
function blocks(content: ChatMessage["content"]): Block[] {
  if (content === null) return [];
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  return content.flatMap((p): Block[] => {
    const part = p as { type: string; text?: string; image_url?: { url?: string } | string };
    if (part.type === "text") return [{ type: "text", text: part.text ?? "" }];
    if (part.type === "image_url") {
      const url = typeof part.image_url === "string" ? part.image_url : (part.image_url?.url ?? "");
      const data = /^data:([^;]+);base64,(.*)$/.exec(url);
      return [{ type: "image", source: data ? { type: "base64", media_type: data[1], data: data[2] } : { type: "url", url } }];
    }
    return [];
  });
}

const text = (content: ChatMessage["content"]) =>
  typeof content === "string" ? content : (content ?? []).map((p) => (p as { text?: string }).text ?? "").join("\n");

/**
 * A chat request in Anthropic's Messages shape: system messages become `system`, tool calls
 * `tool_use` blocks, tool results `tool_result` blocks in a user turn; `max_tokens` is required
 * there (1024 unless given).
 */
export function toAnthropic(req: ChatRequest) {
  const system = req.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => text(m.content))
    .join("\n\n");
  const messages = req.messages
    .filter((m) => m.role !== "system" && m.role !== "developer")
    .map((m) => {
      if (m.role === "tool")
        return { role: "user", content: [{ type: "tool_result", tool_use_id: m.tool_call_id ?? "", content: text(m.content) }] };
      const calls = (m.tool_calls ?? []).map((c) => ({
        type: "tool_use",
        id: c.id,
        name: c.function.name,
        input: (() => {
          try {
            return JSON.parse(c.function.arguments || "{}") as unknown;
          } catch {
            return {};
          }
        })(),
      }));
      return { role: m.role === "assistant" ? "assistant" : "user", content: [...blocks(m.content), ...calls] };
    });
  return {
    model: req.model,
    ...(system ? { system } : {}),
    messages,
    max_tokens: req.max_tokens ?? 1024,
    stream: true,
    ...(req.temperature != null ? { temperature: req.temperature } : {}),
    ...(req.stop?.length ? { stop_sequences: req.stop } : {}),
    ...(req.tools?.length
      ? {
          tools: req.tools.map((t) => ({
            name: t.function.name,
            description: t.function.description,
            input_schema: t.function.parameters ?? { type: "object" },
          })),
          ...(anthropicToolChoice(req.tool_choice) ? { tool_choice: anthropicToolChoice(req.tool_choice) } : {}),
        }
      : {}),
  };
}

/** OpenAI's tool_choice in Anthropic's words: a named function is `{type: "tool", name}`, "required" is "any". */
function anthropicToolChoice(choice: unknown): Record<string, string> | null {
  if (choice === "auto") return { type: "auto" };
  if (choice === "required") return { type: "any" };
  const name = (choice as { function?: { name?: unknown } } | null)?.function?.name;
  return typeof name === "string" ? { type: "tool", name } : null;
}
