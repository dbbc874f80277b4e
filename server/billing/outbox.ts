import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql, type SqlFragment } from "../db/sql";
import type { UsageDelta } from "./schema";

export interface Usage {
  runs: number;
  traces: number;
}

/**
 * Records usage for billing: one outbox row, written with the caller's connection so that inside the
 * ingest transaction the usage commits (or rolls back) with the runs it counts. Nothing for zero usage.
 */
export async function recordUsage(db: Sql, workspaceId: string, delta: Usage): Promise<void> {
  if (delta.runs <= 0 && delta.traces <= 0) return;
  await db.query(sql`
    INSERT INTO billing_usage_outbox (id, workspace_id, month, runs, traces)
    VALUES (${randomUUID()}, ${workspaceId}, date_trunc('month', now() AT TIME ZONE 'UTC')::date, ${delta.runs}, ${delta.traces})`);
}

/**
 * `recordUsage` for the runs a statement of the same WITH inserted, as a data-modifying CTE: reads a
 * CTE named `inserted_runs` (id, trace_id); a root run (id = trace_id) begins a trace. Nothing when
 * nothing was inserted.
 */
export function usageOfInsertedRuns(workspaceId: string): SqlFragment {
  return sql`
    INSERT INTO billing_usage_outbox (id, workspace_id, month, runs, traces)
    SELECT ${randomUUID()}, ${workspaceId}, date_trunc('month', now() AT TIME ZONE 'UTC')::date,
      count(*), count(*) FILTER (WHERE id = trace_id)
    FROM inserted_runs HAVING count(*) > 0`;
}

export interface ClaimedDelta extends UsageDelta {
  attempts: number;
}

/**
 * Takes up to `limit` due, undelivered rows and leases them for `leaseMs` (another instance skips them
 * meanwhile; if this one dies they become due again). Counts the attempt.
 */
export async function claimDue(db: Sql, limit: number, leaseMs: number): Promise<ClaimedDelta[]> {
  return db.query<ClaimedDelta>(sql`
    UPDATE billing_usage_outbox SET attempts = attempts + 1, next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id IN (
      SELECT id FROM billing_usage_outbox
      WHERE delivered_at IS NULL AND next_attempt_at <= now()
      ORDER BY created_at, id LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, workspace_id, to_char(month, 'YYYY-MM-DD') AS month, runs::float8 AS runs, traces::float8 AS traces, attempts`);
}

export async function markDelivered(db: Sql, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(sql`
    UPDATE billing_usage_outbox SET delivered_at = now(), last_error = NULL
    WHERE id = ANY(${ids}::uuid[]) AND delivered_at IS NULL`);
}

/** Exponential backoff from `baseMs`, doubling per attempt, capped at `capMs`. */
export function backoffMs(attempts: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

/** A failed delivery: the rows become due again after a backoff that grows with their attempts. */
export async function markFailed(db: Sql, rows: ClaimedDelta[], error: string, baseMs: number, capMs: number): Promise<void> {
  if (rows.length === 0) return;
  const retries = rows.map((r) => ({ id: r.id, wait: backoffMs(r.attempts, baseMs, capMs) }));
  await db.query(sql`
    UPDATE billing_usage_outbox AS o SET next_attempt_at = now() + v.wait * interval '1 millisecond', last_error = ${error.slice(0, 1000)}
    FROM jsonb_to_recordset(${JSON.stringify(retries)}::jsonb) AS v(id uuid, wait float8)
    WHERE o.id = v.id AND o.delivered_at IS NULL`);
}

/** Delivered rows are only history once counted; they are kept this long for inspection. */
export async function pruneDelivered(db: Sql, olderThanMs: number): Promise<void> {
  await db.query(sql`DELETE FROM billing_usage_outbox WHERE delivered_at < now() - ${olderThanMs} * interval '1 millisecond'`);
}

/** Usage recorded by this deployment and not yet counted by billing. */
export async function unreportedUsage(db: Sql, workspaceId: string): Promise<Usage & { oldest: string | null }> {
  const [row] = await db.query<{ runs: number; traces: number; oldest: string | null }>(sql`
    SELECT COALESCE(sum(runs), 0)::float8 AS runs, COALESCE(sum(traces), 0)::float8 AS traces, min(created_at)::text AS oldest
    FROM billing_usage_outbox WHERE workspace_id = ${workspaceId} AND delivered_at IS NULL`);
  return { runs: row.runs, traces: row.traces, oldest: row.oldest };
}
