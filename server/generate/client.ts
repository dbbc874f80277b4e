import { EgressRefused, postJsonForResponse } from "../egress/http";
import { completionsUrl } from "../models/urls";
import { AppError, badRequest } from "../core/errors";

export interface GenerationConfig {
  baseUrl: string;
  apiKey: string | null;
  headers?: Record<string, string>;
  model: string;
  source: "workspace" | "connection" | "deployment";
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

const badGateway = (detail: string) => new AppError(502, detail);
const snippet = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

/**
 * One chat completion in JSON mode (`response_format: json_object`) through the egress client;
 * returns the parsed JSON the model wrote. Upstream failures and non-JSON answers are 502s that say
 * what came back; a refused URL (private address without ALLOW_PRIVATE_EGRESS=1) is a 400.
 */
export async function completeJson(config: GenerationConfig, messages: ChatMessage[], timeoutMs = 120_000): Promise<unknown> {
  let answer;
  try {
    answer = await postJsonForResponse(
      completionsUrl(config.baseUrl),
      { model: config.model, messages, response_format: { type: "json_object" }, temperature: 0.2 },
      { headers: { ...config.headers, ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) }, timeoutMs },
    );
  } catch (error) {
    if (error instanceof EgressRefused) throw badRequest(`The generation endpoint cannot be called: ${error.message}`);
    throw badGateway(`The generation endpoint could not be reached: ${(error as Error).message}`);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw badGateway(`The generation endpoint answered HTTP ${answer.status}: ${snippet(answer.body)}`);
  }
  let completion: unknown;
  try {
    completion = JSON.parse(answer.body);
  } catch {
    throw badGateway(`The generation endpoint's answer is not JSON: ${snippet(answer.body)}`);
  }
  const choice = (completion as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[] })?.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== "string") throw badGateway("The generation endpoint's answer has no choices[0].message.content text.");
  if (choice?.finish_reason === "length")
    throw badGateway("The model stopped at its length limit before finishing its JSON; ask for less.");
  try {
    // Some models wrap JSON in a markdown fence even in JSON mode.
    return JSON.parse(content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, "$1"));
  } catch {
    throw badGateway(`The model's answer is not valid JSON: ${snippet(content)}`);
  }
}
