import type { ChatRequest, ChatResult } from "../models/types";
import { COMMENT_KEYS, type OutputSchema } from "./schema";

const TOOL = "submit_verdict";

type Property = { type: string; enum?: string[]; description?: string };
const isComment = (key: string) => (COMMENT_KEYS as readonly string[]).includes(key);

/** The feedback keys an output schema yields (its properties but the comment). */
export function feedbackKeysOf(schema: OutputSchema): string[] {
  return Object.keys(schema.properties).filter((k) => !isComment(k));
}

/**
 * How the model is asked for the verdict: one tool whose parameters are the output schema, and a
 * tool_choice that forces it (structured output that OpenAI-compatible servers and Anthropic both
 * honour).
 */
export function verdictTool(schema: OutputSchema): Pick<ChatRequest, "tools" | "tool_choice"> {
  const { title: _title, description, ...parameters } = schema;
  return {
    tools: [
      {
        type: "function",
        function: {
          name: TOOL,
          description: description ?? "Submit the evaluation of the run.",
          parameters: { ...parameters, required: parameters.required ?? Object.keys(schema.properties) },
        },
      },
    ],
    tool_choice: { type: "function", function: { name: TOOL } },
  };
}

export interface VerdictFeedback {
  key: string;
  score: number | null;
  value: string | boolean | number | null;
  comment: string | null;
}

/** The model's answer as JSON: the forced tool call's arguments, or a JSON object in its text (a fenced block too). */
function answerObject(result: ChatResult): Record<string, unknown> {
  const call = result.toolCalls.find((c) => c.function.name === TOOL) ?? result.toolCalls[0];
  const text = call ? call.function.arguments : (/```(?:json)?\s*([\s\S]*?)```/.exec(result.text)?.[1] ?? result.text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new VerdictError(`The model's answer is not JSON: ${text.slice(0, 200)}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new VerdictError("The model's answer is not a JSON object.");
  return parsed as Record<string, unknown>;
}

/** A verdict that does not follow the schema: a permanent failure of that evaluation (retrying would not help). */
export class VerdictError extends Error {}

/**
 * The verdict as feedback, one per key: a number is the score (continuous), a boolean scores 1 or 0
 * with the boolean as value, a category is the value (no score). The comment/reasoning property
 * goes to every key's comment.
 */
export function verdictFeedback(schema: OutputSchema, result: ChatResult): VerdictFeedback[] {
  const answer = answerObject(result);
  const commentKey = Object.keys(schema.properties).find(isComment);
  const comment = commentKey && typeof answer[commentKey] === "string" ? (answer[commentKey] as string) : null;
  return feedbackKeysOf(schema).map((key) => {
    const property = schema.properties[key] as Property;
    const value = answer[key];
    if (value === undefined || value === null) throw new VerdictError(`The model's answer has no "${key}".`);
    if (property.type === "boolean") {
      if (typeof value !== "boolean")
        throw new VerdictError(`"${key}" must be true or false; the model answered ${JSON.stringify(value)}.`);
      return { key, score: value ? 1 : 0, value, comment };
    }
    if (property.type === "number" || property.type === "integer") {
      if (typeof value !== "number" || !Number.isFinite(value))
        throw new VerdictError(`"${key}" must be a number; the model answered ${JSON.stringify(value)}.`);
      return { key, score: value, value: null, comment };
    }
    const categories = property.enum ?? [];
    const index = categories.indexOf(String(value));
    if (index < 0) throw new VerdictError(`"${key}" must be one of ${categories.join(", ")}; the model answered ${JSON.stringify(value)}.`);
    return { key, score: null, value: categories[index], comment };
  });
}
