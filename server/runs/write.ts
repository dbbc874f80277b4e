import type { Sql } from "../db/client";
import { inWorkspace, raw as rawText, sql, type SqlFragment } from "../db/sql";
import { storableRecords } from "../db/storable";
import { INSERTED_RUN_COLUMNS } from "./trace-totals";

/** Every column an ingest request may set, with its SQL type for jsonb_to_recordset. */
const COLUMNS = {
  id: "uuid",
  project_id: "uuid",
  trace_id: "uuid",
  parent_run_id: "uuid",
  dotted_order: "text",
  is_root: "boolean",
  placement_pending: "boolean",
  name: "text",
  run_type: "text",
  start_time: "timestamptz",
  end_time: "timestamptz",
  inputs: "jsonb",
  outputs: "jsonb",
  error: "text",
  extra: "jsonb",
  events: "jsonb",
  tags: "text[]",
  serialized: "jsonb",
  reference_example_id: "uuid",
  thread_id: "text",
  model: "text",
  provider: "text",
  prompt_tokens: "integer",
  completion_tokens: "integer",
  total_tokens: "integer",
  tokens_estimated: "boolean",
  prompt_cost: "numeric",
  completion_cost: "numeric",
  total_cost: "numeric",
  usage_details: "jsonb",
  first_token_time: "timestamptz",
  diagnostics: "jsonb",
  input_preview: "text",
  output_preview: "text",
} as const;

export type RunColumn = keyof typeof COLUMNS;
export type RunRow = Partial<Record<RunColumn, unknown>> & { id: string };

const RECORD = Object.entries(COLUMNS)
  .map(([name, type]) => `${name} ${type}`)
  .join(", ");
const DERIVED: RunColumn[] = [
  "model",
  "provider",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "tokens_estimated",
  "prompt_cost",
  "completion_cost",
  "total_cost",
  "usage_details",
  "first_token_time",
  "diagnostics",
];
const MERGED: RunColumn[] = (Object.keys(COLUMNS) as RunColumn[]).filter((c) => c !== "id" && c !== "extra");

/**
 * The rows as one jsonb parameter; text PostgreSQL cannot hold (U+0000, lone surrogates) is escaped,
 * and inputs and outputs of multipart parts are spliced in as the text they were sent as (db/storable).
 */
const recordset = (rows: RunRow[]) => sql`jsonb_to_recordset(${storableRecords(rows)}::jsonb) AS v(${rawText(RECORD)})`;

const STATUS = (error: string, end: string) =>
  `CASE WHEN ${error} IS NOT NULL THEN 'error' WHEN ${end} IS NOT NULL THEN 'success' ELSE 'pending' END`;
/**
 * End minus start, in ms. The SDKs send times in milliseconds but may move a start up by a few
 * microseconds to keep sibling runs in order (the dotted order), so a run that took no time can end
 * "before" it starts: less than a millisecond early counts as 0, not as a negative latency.
 */
const LATENCY = (start: string, end: string) =>
  `CASE WHEN ${end} < ${start} AND ${end} >= ${start} - interval '1 millisecond' THEN 0 ELSE EXTRACT(EPOCH FROM (${end} - ${start})) * 1000 END`;

/**
 * Applies partial rows to runs that already exist: a later non-null value wins and
 * extra.metadata merges. Returns the ids it updated.
 */
export async function updateExisting(db: Sql, workspaceId: string, rows: RunRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const set = MERGED.map((c) => `${c} = COALESCE(v.${c}, r.${c})`).join(",\n      ");
  const result = await db.query<{ id: string }>(sql`
    UPDATE runs AS r SET
      ${rawText(set)},
      extra = CASE WHEN v.extra IS NULL THEN r.extra
        ELSE COALESCE(r.extra, '{}'::jsonb) || v.extra || jsonb_build_object('metadata',
          COALESCE(r.extra->'metadata', '{}'::jsonb) || COALESCE(v.extra->'metadata', '{}'::jsonb)) END,
      status = ${rawText(STATUS("COALESCE(v.error, r.error)", "COALESCE(v.end_time, r.end_time)"))},
      latency_ms = ${rawText(LATENCY("COALESCE(v.start_time, r.start_time)", "COALESCE(v.end_time, r.end_time)"))},
      updated_at = now()
    FROM ${recordset(rows)}
    WHERE r.id = v.id AND r.workspace_id = ${workspaceId}
    RETURNING r.id`);
  return result.map((r) => r.id);
}

/** The INSERT of `insertNew`, returning what each run inserted adds to its trace's totals (for use in a WITH). */
export function insertNewStatement(workspaceId: string, rows: RunRow[]): SqlFragment {
  const columns = Object.keys(COLUMNS).join(", ");
  const values = Object.keys(COLUMNS)
    .map((c) => `v.${c}`)
    .join(", ");
  return sql`
    INSERT INTO runs (workspace_id, ${rawText(columns)}, status, latency_ms)
    SELECT ${workspaceId}::uuid, ${rawText(values)},
      ${rawText(STATUS("v.error", "v.end_time"))}, ${rawText(LATENCY("v.start_time", "v.end_time"))}
    FROM ${recordset(rows)}
    ON CONFLICT (id) DO NOTHING
    RETURNING ${rawText(INSERTED_RUN_COLUMNS)}`;
}

/** Inserts complete rows for runs not stored yet; returns the ids inserted (a concurrent writer may win). */
export async function insertNew(db: Sql, workspaceId: string, rows: RunRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const result = await db.query<{ id: string }>(insertNewStatement(workspaceId, rows));
  return result.map((r) => r.id);
}

export interface StoredForDerive {
  id: string;
  run_type: string;
  inputs: unknown;
  outputs: unknown;
  extra: unknown;
  events: unknown;
  start_time: string;
  end_time: string | null;
}

export async function loadForDerive(db: Sql, workspaceId: string, ids: string[]): Promise<StoredForDerive[]> {
  if (ids.length === 0) return [];
  return db.query<StoredForDerive>(sql`
    SELECT id, run_type, inputs, outputs, extra, events, start_time, end_time FROM runs
    WHERE id = ANY(${ids}::uuid[]) AND ${inWorkspace(workspaceId)}`);
}

/** Overwrites the derived columns (tokens, cost, model, first token) of stored runs. */
export async function writeDerived(db: Sql, workspaceId: string, rows: RunRow[]): Promise<void> {
  if (rows.length === 0) return;
  const set = DERIVED.map((c) => `${c} = v.${c}`).join(", ");
  await db.query(sql`
    UPDATE runs AS r SET ${rawText(set)}
    FROM ${recordset(rows)}
    WHERE r.id = v.id AND r.workspace_id = ${workspaceId}`);
}

/**
 * How many stored runs wait for one of these runs as their parent, as a scalar subquery. A count, not
 * LIMIT 1: with LIMIT the planner may prefer a sequential scan hoping to stop early.
 */
export function pendingChildrenCount(workspaceId: string, ids: string[]): SqlFragment {
  return sql`SELECT runs_pending_children(${workspaceId}::uuid, ${ids}::uuid[])`;
}
