/**
 * The canonical conversation model: every accepted message format (native, OpenAI chat and
 * Responses, Anthropic, Gemini, LangChain-serialized, other custom shapes) is read into these types,
 * and both the REST API and the UI render from them.
 */
export type MessageRole = "system" | "reasoning" | "user" | "assistant" | "tool";

/** Where a media block's bytes are: a URL, inline base64, or a provider file id. */
export interface MediaSource {
  url?: string;
  base64?: string;
  id?: string;
  mimeType?: string;
}

export type Block =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "image" | "audio" | "video" | "file"; source: MediaSource; name?: string }
  | { type: "tool_call"; id: string | null; name: string; args: unknown }
  | { type: "server_tool_call"; id: string | null; name: string; args: unknown }
  | { type: "server_tool_result"; toolCallId: string | null; output: unknown; status?: "success" | "error" }
  /** A part we do not understand, kept as-is so nothing is lost. */
  | { type: "json"; value: unknown };

export interface Message {
  role: MessageRole;
  name?: string;
  /** For role "tool": the id of the assistant tool call this message answers. */
  toolCallId?: string;
  blocks: Block[];
}

/** A structural problem found while reading a run's messages; the run is still stored and shown. */
export interface Diagnostic {
  /** Where in the run, e.g. "inputs.messages[3].tool_call_id". */
  path: string;
  message: string;
}

export type ConversationFormat = "native" | "openai" | "openai-responses" | "anthropic" | "gemini" | "langchain" | "other" | "unknown";

export interface Conversation {
  format: ConversationFormat;
  /** Messages sent to the model (inputs), in order. Empty when the format is unknown. */
  input: Message[];
  /** Messages the model produced (outputs). */
  output: Message[];
  diagnostics: Diagnostic[];
}
