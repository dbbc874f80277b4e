import { z } from "zod";

/** Where a workspace's model calls go: an OpenAI-compatible server or Anthropic's Messages API. */
export interface Connection {
  /** A stored connection's id, or "default" for the deployment's GENERATION_* settings. */
  id: string;
  name: string;
  provider: "openai" | "anthropic";
  baseUrl: string;
  apiKey: string | null;
  headers: Record<string, string>;
  defaultModel: string;
  /** Calls per minute through it across instances; null: no limit of ours. */
  requestsPerMinute: number | null;
}

const part = z.looseObject({ type: z.string() });

/** A message in OpenAI's chat shape, the playground's canonical form. */
export const chatMessage = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(part)]).nullable(),
  name: z.string().optional(),
  tool_call_id: z.string().optional(),
  tool_calls: z
    .array(z.object({ id: z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() }) }))
    .optional(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const tool = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1).max(64),
    description: z.string().max(10_000).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** One chat call: the model, the messages and the parameters the playground edits. */
export const chatRequest = z.object({
  model: z.string().min(1).max(200),
  messages: z.array(chatMessage).min(1).max(500),
  tools: z.array(tool).max(64).nullish(),
  tool_choice: z.unknown().optional(),
  response_format: z.record(z.string(), z.unknown()).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().min(1).max(200_000).nullish(),
  stop: z.array(z.string().max(200)).max(8).nullish(),
});
export type ChatRequest = z.infer<typeof chatRequest>;

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  finishReason: string | null;
  model: string;
  startedAt: Date;
  firstTokenAt: Date | null;
  endedAt: Date;
}
