/**
 * The fields a filter may name, and what kind of value each one holds. The compiler chooses the
 * SQL by kind; column names are fixed here and never come from the request.
 */
export type FieldSpec =
  | { kind: "uuid" | "text" | "time" | "bool"; column: string }
  /** `rollup`: on a root run, the trace's total (what the run shows) rather than the run's own. */
  | { kind: "int" | "numeric"; column: string; rollup?: true }
  | { kind: "duration"; column: "latency" | "first_token" }
  | { kind: "error" | "tags" | "execution_order" }
  /** The end user a run's metadata names (`run_user_id()`, migration 20261128050100_run_users). */
  | { kind: "user" }
  | { kind: "json"; column: "inputs" | "outputs" | "metadata" | "extra" }
  | { kind: "pair"; family: PairFamily; part: "key" | "value" | "score" };

export type PairFamily = "metadata" | "input" | "output" | "feedback";

const FIELDS: Record<string, FieldSpec> = {
  id: { kind: "uuid", column: "id" },
  run_id: { kind: "uuid", column: "id" },
  trace_id: { kind: "uuid", column: "trace_id" },
  parent_run_id: { kind: "uuid", column: "parent_run_id" },
  reference_example_id: { kind: "uuid", column: "reference_example_id" },
  session: { kind: "uuid", column: "project_id" },
  session_id: { kind: "uuid", column: "project_id" },
  project_id: { kind: "uuid", column: "project_id" },
  name: { kind: "text", column: "name" },
  run_type: { kind: "text", column: "run_type" },
  status: { kind: "text", column: "status" },
  thread_id: { kind: "text", column: "thread_id" },
  user_id: { kind: "user" },
  model: { kind: "text", column: "model" },
  provider: { kind: "text", column: "provider" },
  error: { kind: "error" },
  start_time: { kind: "time", column: "start_time" },
  end_time: { kind: "time", column: "end_time" },
  latency: { kind: "duration", column: "latency" },
  first_token_time: { kind: "duration", column: "first_token" },
  prompt_tokens: { kind: "int", column: "prompt_tokens", rollup: true },
  completion_tokens: { kind: "int", column: "completion_tokens", rollup: true },
  total_tokens: { kind: "int", column: "total_tokens", rollup: true },
  prompt_cost: { kind: "numeric", column: "prompt_cost", rollup: true },
  completion_cost: { kind: "numeric", column: "completion_cost", rollup: true },
  total_cost: { kind: "numeric", column: "total_cost", rollup: true },
  is_root: { kind: "bool", column: "is_root" },
  tags: { kind: "tags" },
  metadata: { kind: "json", column: "metadata" },
  inputs: { kind: "json", column: "inputs" },
  outputs: { kind: "json", column: "outputs" },
  extra: { kind: "json", column: "extra" },
  execution_order: { kind: "execution_order" },
  metadata_key: { kind: "pair", family: "metadata", part: "key" },
  metadata_value: { kind: "pair", family: "metadata", part: "value" },
  input_key: { kind: "pair", family: "input", part: "key" },
  input_value: { kind: "pair", family: "input", part: "value" },
  output_key: { kind: "pair", family: "output", part: "key" },
  output_value: { kind: "pair", family: "output", part: "value" },
  feedback_key: { kind: "pair", family: "feedback", part: "key" },
  feedback_score: { kind: "pair", family: "feedback", part: "score" },
  feedback_value: { kind: "pair", family: "feedback", part: "value" },
};

export const FIELD_NAMES = Object.keys(FIELDS);

export function isField(name: string): boolean {
  return Object.hasOwn(FIELDS, name);
}

export function fieldSpec(name: string): FieldSpec {
  return FIELDS[name];
}
