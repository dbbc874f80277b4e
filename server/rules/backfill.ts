import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest } from "../core/errors";
import { isoFromDb } from "../core/time";
import { defineQueue, onJobs, type Job } from "../jobs/queue";
import { claimAndQueue } from "./evaluate";
import { countUnconsidered, rangePage, type TimeRange } from "./match";
import { loadRule, type Rule } from "./store";

const PAGE = 500;

/** Backfills: one job per backfill, scanning its time range page by page. */
const backfillQueue = defineQueue<{ backfill_id: string }>("backfill", { batchSize: 1 });

interface BackfillRow {
  id: string;
  workspace_id: string;
  rule_id: string;
  start_time: string;
  end_time: string;
  runs_total: number;
  runs_queued: number;
  scanned: boolean;
  cursor_time: string | null;
  cursor_id: string | null;
  created_at: string;
}

/**
 * Starts a backfill of a rule with an evaluator: the runs of the range it has not considered are
 * counted now, and one durable job scans them page by page. The row and its job are one transaction.
 */
export async function startBackfill(db: Sql, workspaceId: string, ruleId: string, range: TimeRange) {
  const rule = await loadRule(db, workspaceId, ruleId);
  if (!rule.evaluatorId) throw badRequest("Only a rule with an evaluator can be backfilled.");
  if (range.start >= range.end) throw badRequest("start_time must be before end_time.");
  const total = await countUnconsidered(db, rule, range);
  const id = randomUUID();
  await db.tx(async (tx) => {
    await tx.query(sql`
      INSERT INTO rule_backfills (id, workspace_id, rule_id, start_time, end_time, runs_total)
      VALUES (${id}, ${workspaceId}, ${rule.id}, ${range.start.toISOString()}, ${range.end.toISOString()}, ${total})`);
    await backfillQueue.enqueue(tx, [{ id, data: { backfill_id: id } }]);
  });
  return readBackfill(db, workspaceId, id);
}

/**
 * Scans a backfill from its cursor: each page's runs are claimed (sampled), their evaluations
 * queued and the cursor moved, in one transaction, so an instance that dies mid-scan leaves a
 * cursor the job continues from when it runs again, and no run is queued twice.
 */
async function scan(db: Sql, jobs: Job<{ backfill_id: string }>[]): Promise<void> {
  for (const job of jobs) {
    const [backfill] = await db.query<BackfillRow>(sql`SELECT * FROM rule_backfills WHERE id = ${job.data.backfill_id}`);
    if (!backfill || backfill.scanned) continue;
    let rule: Rule;
    try {
      rule = await loadRule(db, backfill.workspace_id, backfill.rule_id);
    } catch {
      continue;
    }
    const range = { start: new Date(backfill.start_time), end: new Date(backfill.end_time) };
    for (let cursor = backfill.cursor_time ? { time: backfill.cursor_time, id: backfill.cursor_id! } : null; ;) {
      const page = await rangePage(db, rule, range, cursor, PAGE);
      const last = page.at(-1);
      await db.tx(async (tx) => {
        const queued = await claimAndQueue(
          tx,
          rule,
          page.map((r) => r.id),
          backfill.id,
        );
        await tx.query(sql`
          UPDATE rule_backfills SET runs_queued = runs_queued + ${queued.length}, scanned = ${page.length < PAGE},
            cursor_time = COALESCE(${last?.start_time ?? null}::timestamptz, cursor_time), cursor_id = COALESCE(${last?.id ?? null}::uuid, cursor_id)
          WHERE id = ${backfill.id}`);
      });
      if (page.length < PAGE) break;
      cursor = { time: last!.start_time, id: last!.id };
    }
  }
}

onJobs(backfillQueue, scan);

/** A backfill as the API shows it: evaluated so far (each finished evaluation, with feedback or an error) out of queued. */
async function toWire(db: Sql, b: BackfillRow, samplingRate: number) {
  const [done] = await db.query<{ n: number; last: string | null }>(sql`
    SELECT count(*)::int AS n, max(created_at) AS last FROM evaluations WHERE backfill_id = ${b.id}`);
  const expected = b.scanned ? b.runs_queued : Math.max(b.runs_queued, Math.round(b.runs_total * samplingRate));
  const completed = b.scanned && done.n >= b.runs_queued;
  return {
    id: b.id,
    rule_id: b.rule_id,
    start_time: isoFromDb(b.start_time)!,
    end_time: isoFromDb(b.end_time)!,
    status: completed ? ("completed" as const) : ("running" as const),
    runs_total: b.runs_total,
    runs_queued: b.runs_queued,
    runs_evaluated: done.n,
    progress: completed || expected === 0 ? 1 : Math.min(0.99, done.n / expected),
    created_at: isoFromDb(b.created_at)!,
    completed_at: completed ? isoFromDb(done.last ?? b.created_at) : null,
  };
}
export type WireBackfill = Awaited<ReturnType<typeof toWire>>;

export async function readBackfill(db: Sql, workspaceId: string, id: string): Promise<WireBackfill> {
  const [row] = await db.query<BackfillRow & { sampling_rate: number }>(sql`
    SELECT b.*, r.sampling_rate FROM rule_backfills b JOIN run_rules r ON r.id = b.rule_id
    WHERE b.id = ${id} AND b.workspace_id = ${workspaceId}`);
  return toWire(db, row, row.sampling_rate);
}

/** The rule's backfills, newest first. */
export async function listBackfills(db: Sql, workspaceId: string, ruleId: string): Promise<WireBackfill[]> {
  const rule = await loadRule(db, workspaceId, ruleId);
  const rows = await db.query<BackfillRow>(sql`
    SELECT * FROM rule_backfills WHERE rule_id = ${rule.id} ORDER BY created_at DESC, id LIMIT 50`);
  return Promise.all(rows.map((b) => toWire(db, b, rule.samplingRate)));
}

/** The newest backfill of each rule, for the rule list's `backfill_*` fields. */
export async function latestBackfills(db: Sql, rules: Rule[]): Promise<Map<string, WireBackfill>> {
  if (rules.length === 0) return new Map();
  const rows = await db.query<BackfillRow>(sql`
    SELECT DISTINCT ON (rule_id) * FROM rule_backfills WHERE rule_id = ANY(${rules.map((r) => r.id)}::uuid[])
    ORDER BY rule_id, created_at DESC, id`);
  const rates = new Map(rules.map((r) => [r.id, r.samplingRate]));
  return new Map(await Promise.all(rows.map(async (b) => [b.rule_id, await toWire(db, b, rates.get(b.rule_id) ?? 1)] as const)));
}
