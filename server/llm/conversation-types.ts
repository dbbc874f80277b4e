import { z } from "zod";

/**
 * The canonical conversation model: every accepted message format (native, OpenAI chat and
 * Responses, Anthropic, Gemini, LangChain-serialized, other custom shapes) is read into these types,
 * and both the REST API (`GET /runs/{id}/conversation`, checked against these schemas) and the UI
 * render from them.
 */
export const messageRole = z.enum(["system", "reasoning", "user", "assistant", "tool"]);
export type MessageRole = z.infer<typeof messageRole>;

/** Where a media block's bytes are: a URL, inline base64, or a provider file id. */
export const mediaSource = z.object({
  url: z.string().optional(),
  base64: z.string().optional(),
  id: z.string().optional(),
  mimeType: z.string().optional(),
});
export type MediaSource = z.infer<typeof mediaSource>;

const callId = z.string().nullable();

export const block = z.union([
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("reasoning"), text: z.string() }),
  z.object({ type: z.enum(["image", "audio", "video", "file"]), source: mediaSource, name: z.string().optional() }),
  z.object({ type: z.literal("tool_call"), id: callId, name: z.string(), args: z.unknown() }),
  z.object({ type: z.literal("server_tool_call"), id: callId, name: z.string(), args: z.unknown() }),
  z.object({
    type: z.literal("server_tool_result"),
    toolCallId: callId,
    output: z.unknown(),
    status: z.enum(["success", "error"]).optional(),
  }),
  /** A part we do not understand, kept as-is so nothing is lost. */
  z.object({ type: z.literal("json"), value: z.unknown() }),
]);
export type Block = z.infer<typeof block>;

export const message = z.object({
  role: messageRole,
  name: z.string().optional(),
  /** For role "tool": the id of the assistant tool call this message answers. */
  toolCallId: z.string().optional(),
  blocks: z.array(block),
});
export type Message = z.infer<typeof message>;

/** A structural problem found while reading a run's messages; the run is still stored and shown. */
export const diagnostic = z.object({
  /** Where in the run, e.g. "inputs.messages[3].tool_call_id". */
  path: z.string(),
  message: z.string(),
});
export type Diagnostic = z.infer<typeof diagnostic>;

export const conversationFormat = z.enum(["native", "openai", "openai-responses", "anthropic", "gemini", "langchain", "other", "unknown"]);
export type ConversationFormat = z.infer<typeof conversationFormat>;

export const conversation = z.object({
  format: conversationFormat,
  /** Messages sent to the model (inputs), in order. Empty when the format is unknown. */
  input: z.array(message),
  /** Messages the model produced (outputs). */
  output: z.array(message),
  diagnostics: z.array(diagnostic),
});
export type Conversation = z.infer<typeof conversation>;
