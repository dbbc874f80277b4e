import { JSONPath } from "jsonpath-plus";
import Mustache from "mustache";
import { fillTemplate } from "../generate/manifest";
import type { ChatMessage } from "../models/types";

/** What an evaluator's prompt can read: the run and, for an experiment's run, its example's outputs. */
export interface RunForEvaluation {
  id: string;
  name: string;
  run_type: string;
  inputs: unknown;
  outputs: unknown;
  error: string | null;
  tags: string[];
  metadata: unknown;
  reference: unknown;
}

const ROLE: Record<string, ChatMessage["role"]> = {
  system: "system",
  user: "user",
  human: "user",
  assistant: "assistant",
  ai: "assistant",
};

function scope(run: RunForEvaluation) {
  return {
    input: run.inputs,
    inputs: run.inputs,
    output: run.outputs,
    outputs: run.outputs,
    reference: run.reference,
    reference_outputs: run.reference,
    run: { id: run.id, name: run.name, run_type: run.run_type, error: run.error, tags: run.tags, metadata: run.metadata },
  };
}

/**
 * A variable mapping's path into the run: `output.answer`, `reference`, `inputs.messages[0].content`,
 * or a JSONPath (`$.outputs.answer`). Script expressions are off: a path is data, never code.
 */
export function resolvePath(run: RunForEvaluation, path: string): unknown {
  const expression = path.startsWith("$") ? path : `$.${path}`;
  return JSONPath({ path: expression, json: scope(run), wrap: false, eval: false }) as unknown;
}

/** The template's values: `input`, `output`, `reference` (and their plural names), then each mapped variable. */
export function variablesFor(run: RunForEvaluation, mapping: Record<string, string>): Record<string, unknown> {
  const values: Record<string, unknown> = { ...scope(run) };
  for (const [name, path] of Object.entries(mapping)) values[name] = resolvePath(run, path) ?? null;
  return values;
}

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value ?? null));

/** The evaluator's messages with the run's values filled in (f-string `{input}` or mustache `{{input}}`). */
export function renderPrompt(prompt: [string, string][], format: string, values: Record<string, unknown>): ChatMessage[] {
  return prompt.map(([role, template]) => ({
    role: ROLE[role] ?? "user",
    content: format === "mustache" ? Mustache.render(template, values, {}, { escape: asText }) : fillTemplate(template, values),
  }));
}
