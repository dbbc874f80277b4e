import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";

/**
 * Stores a project and runs directly, for storage tests of the services that read runs
 * (feedback, sharing, rules) without going through ingest.
 */
export async function storeProject(db: Sql, workspaceId: string, name = `p-${randomUUID().slice(0, 8)}`): Promise<string> {
  const id = randomUUID();
  await db.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${id}, ${workspaceId}, ${name})`);
  return id;
}

export interface TestRun {
  id?: string;
  traceId?: string;
  parentRunId?: string | null;
  name?: string;
  runType?: string;
  inputs?: unknown;
  outputs?: unknown;
  error?: string | null;
  tags?: string[];
  ended?: boolean;
  startTime?: string;
}

export async function storeRun(db: Sql, workspaceId: string, projectId: string, run: TestRun = {}): Promise<string> {
  const id = run.id ?? randomUUID();
  const traceId = run.traceId ?? id;
  const start = run.startTime ?? new Date().toISOString();
  const ended = run.ended ?? true;
  const stamp = start
    .replace(/[-:]/g, "")
    .replace(/\.(\d{3})Z$/, "$1000Z")
    .replace("Z", "Z");
  await db.query(sql`
    INSERT INTO runs (id, workspace_id, project_id, trace_id, parent_run_id, dotted_order, is_root, name, run_type, status,
      start_time, end_time, inputs, outputs, error, tags)
    VALUES (${id}, ${workspaceId}, ${projectId}, ${traceId}, ${run.parentRunId ?? null}, ${`${stamp}${id}`}, ${!run.parentRunId},
      ${run.name ?? "run"}, ${run.runType ?? "chain"}, ${run.error ? "error" : ended ? "success" : "pending"},
      ${start}, ${ended ? start : null}, ${JSON.stringify(run.inputs ?? { q: 1 })}::jsonb,
      ${run.outputs === undefined ? (ended ? JSON.stringify({ a: 2 }) : null) : JSON.stringify(run.outputs)}::jsonb,
      ${run.error ?? null}, ${run.tags ?? []}::text[])`);
  return id;
}
