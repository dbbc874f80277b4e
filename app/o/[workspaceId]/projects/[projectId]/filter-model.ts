import type { FilterNode, Literal } from "@/server/runs/filter/ast";
import { FilterSyntaxError } from "@/server/runs/filter/errors";
import { parseFilter } from "@/server/runs/filter/parse";

/**
 * The visual filter builder's model. A filter string (the query language, server/runs/filter) is
 * shown as chips when it is a flat `and(...)` of simple conditions; anything else stays raw text.
 */
export type Chip =
  | { kind: "compare"; field: string; op: string; value: Literal }
  | { kind: "search"; text: string }
  | { kind: "pair"; family: "metadata" | "feedback"; key: string; op: string; value: Literal };

export type ValueKind = "text" | "enum" | "duration" | "number" | "bool";

export interface FieldChoice {
  field: string;
  label: string;
  kind: ValueKind;
  ops: string[];
  options?: string[];
  placeholder?: string;
}

export const OP_LABELS: Record<string, string> = {
  eq: "is",
  neq: "is not",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  like: "matches",
  has: "contains",
};

const COMPARE_OPS = ["gt", "gte", "lt", "lte", "eq"];

/** What the builder offers; the raw editor accepts the whole language. */
export const FIELD_CHOICES: FieldChoice[] = [
  { field: "search", label: "Full text", kind: "text", ops: ["search"], placeholder: "text in name, inputs, outputs, error" },
  { field: "name", label: "Name", kind: "text", ops: ["eq", "neq", "has"], placeholder: "ChatOpenAI" },
  {
    field: "run_type",
    label: "Run type",
    kind: "enum",
    ops: ["eq", "neq"],
    options: ["llm", "chain", "tool", "retriever", "prompt", "parser", "embedding"],
  },
  { field: "status", label: "Status", kind: "enum", ops: ["eq", "neq"], options: ["success", "error", "pending"] },
  { field: "error", label: "Has error", kind: "bool", ops: ["eq"], options: ["true", "false"] },
  { field: "latency", label: "Latency", kind: "duration", ops: COMPARE_OPS, placeholder: "5s, 300ms" },
  { field: "first_token_time", label: "First token", kind: "duration", ops: COMPARE_OPS, placeholder: "1s" },
  { field: "total_tokens", label: "Total tokens", kind: "number", ops: COMPARE_OPS, placeholder: "1000" },
  { field: "total_cost", label: "Total cost ($)", kind: "number", ops: COMPARE_OPS, placeholder: "0.01" },
  { field: "tags", label: "Tag", kind: "text", ops: ["has"], placeholder: "production" },
  { field: "model", label: "Model", kind: "text", ops: ["eq", "neq", "has"], placeholder: "gpt-4o" },
  { field: "provider", label: "Provider", kind: "text", ops: ["eq", "neq"], placeholder: "openai" },
  { field: "metadata", label: "Metadata", kind: "text", ops: ["eq"], placeholder: "value" },
  { field: "feedback", label: "Feedback score", kind: "number", ops: COMPARE_OPS, placeholder: "0.5" },
  { field: "thread_id", label: "Thread", kind: "text", ops: ["eq"], placeholder: "thread id" },
  { field: "user_id", label: "User", kind: "text", ops: ["eq", "neq", "has"], placeholder: "user id" },
  { field: "trace_id", label: "Trace id", kind: "text", ops: ["eq"], placeholder: "uuid" },
];

export function fieldChoice(field: string): FieldChoice | undefined {
  return FIELD_CHOICES.find((f) => f.field === field);
}

/** A literal in the filter language: strings double-quoted, JSON escapes. */
export function formatLiteral(value: Literal): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(formatLiteral).join(", ")}]`;
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

export function chipToFilter(chip: Chip): string {
  if (chip.kind === "search") return `search(${formatLiteral(chip.text)})`;
  if (chip.kind === "pair") {
    const value = chip.family === "metadata" ? "metadata_value" : "feedback_score";
    return `and(eq(${chip.family}_key, ${formatLiteral(chip.key)}), ${chip.op}(${value}, ${formatLiteral(chip.value)}))`;
  }
  return `${chip.op}(${chip.field}, ${formatLiteral(chip.value)})`;
}

export function chipsToFilter(chips: Chip[]): string {
  if (chips.length === 0) return "";
  if (chips.length === 1) return chipToFilter(chips[0]);
  return `and(${chips.map(chipToFilter).join(", ")})`;
}

export function describeChip(chip: Chip): { field: string; op: string; value: string } {
  const show = (v: Literal) => (typeof v === "string" ? v : formatLiteral(v));
  if (chip.kind === "search") return { field: "Text", op: "contains", value: chip.text };
  if (chip.kind === "pair") {
    return chip.family === "metadata"
      ? { field: `metadata.${chip.key}`, op: OP_LABELS[chip.op] ?? chip.op, value: show(chip.value) }
      : { field: `feedback.${chip.key}`, op: OP_LABELS[chip.op] ?? chip.op, value: show(chip.value) };
  }
  const label = fieldChoice(chip.field)?.label ?? chip.field;
  if (chip.field === "error") return { field: chip.value ? "Has error" : "No error", op: "", value: "" };
  return { field: label, op: OP_LABELS[chip.op] ?? chip.op, value: show(chip.value) };
}

function nodeToChip(node: FilterNode): Chip | null {
  if (node.kind === "search" && node.field === null) return { kind: "search", text: node.text };
  if (node.kind === "compare" && !node.field.includes("_key") && !node.field.endsWith("_value") && node.field !== "feedback_score") {
    return { kind: "compare", field: node.field, op: node.op, value: node.value };
  }
  if (node.kind === "and" && node.args.length === 2) {
    const [k, v] = node.args;
    if (k.kind !== "compare" || v.kind !== "compare" || k.op !== "eq" || typeof k.value !== "string") return null;
    if (k.field === "metadata_key" && v.field === "metadata_value")
      return { kind: "pair", family: "metadata", key: k.value, op: v.op, value: v.value };
    if (k.field === "feedback_key" && v.field === "feedback_score")
      return { kind: "pair", family: "feedback", key: k.value, op: v.op, value: v.value };
  }
  return null;
}

export type ParsedFilter = { ok: true; chips: Chip[] | null } | { ok: false; position: number; reason: string; message: string };

/** Parses a filter; `chips` is null when it is valid but too complex for the builder. */
export function parseForBuilder(source: string): ParsedFilter {
  if (!source.trim()) return { ok: true, chips: [] };
  let root: FilterNode;
  try {
    root = parseFilter(source);
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { ok: false, position: error.position, reason: error.reason, message: error.message };
    throw error;
  }
  const single = nodeToChip(root);
  if (single) return { ok: true, chips: [single] };
  if (root.kind !== "and") return { ok: true, chips: null };
  const chips = root.args.map(nodeToChip);
  return { ok: true, chips: chips.every((c) => c !== null) ? (chips as Chip[]) : null };
}

/** The chip the builder's form describes, or a message saying what is missing. */
export function buildChip(field: string, op: string, value: string, key: string): Chip | string {
  const choice = fieldChoice(field);
  if (!choice) return "Choose a field.";
  const text = value.trim();
  if (field === "search") return text ? { kind: "search", text } : "Type the text to search for.";
  if (field === "error") return { kind: "compare", field, op: "eq", value: text !== "false" };
  if (!text) return "Type a value.";
  if (field === "metadata" || field === "feedback") {
    if (!key.trim()) return `Type the ${field} key.`;
    const v: Literal = field === "feedback" ? Number(text) : text;
    if (typeof v === "number" && Number.isNaN(v)) return "The score must be a number.";
    return { kind: "pair", family: field, key: key.trim(), op: field === "metadata" ? "eq" : op, value: v };
  }
  if (choice.kind === "number") {
    const n = Number(text);
    if (Number.isNaN(n)) return "Type a number.";
    return { kind: "compare", field, op, value: n };
  }
  if (choice.kind === "duration") {
    if (!/^\d+(\.\d+)?\s*(ms|s|m|h)?$/i.test(text)) return "Type a duration such as 500ms, 5s or 2m.";
    return { kind: "compare", field, op, value: /[a-z]$/i.test(text) ? text.replace(/\s+/g, "") : `${text}s` };
  }
  return { kind: "compare", field, op, value: text };
}
