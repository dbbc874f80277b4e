import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import type { RuleBackfill } from "../db/generated/client";
import { sql } from "../db/sql";
import { badRequest } from "../core/errors";
import { isoFromDb } from "../core/time";
import { defineQueue, onJobs, type Job } from "../jobs/queue";
import { claimAndQueue } from "./evaluate";
import { countUnconsidered, rangePage, type TimeRange } from "./match";
import { loadRule, type Rule } from "./store";
import type { WireBackfill } from "./schema";

const PAGE = 500;

/** Backfills: one job per backfill, scanning its time range page by page. */
const backfillQueue = defineQueue<{ backfill_id: string }>("backfill", { batchSize: 1 });

/** What the scan reads of a backfill, by SQL: its cursor keeps the microseconds a Date would drop. */
interface ScanState {
  id: string;
  workspace_id: string;
  rule_id: string;
  start_time: string;
  end_time: string;
  scanned: boolean;
  cursor_time: string | null;
  cursor_id: string | null;
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
    const [backfill] = await db.query<ScanState>(sql`
      SELECT id, workspace_id, rule_id, start_time, end_time, scanned, cursor_time, cursor_id FROM rule_backfills WHERE id = ${job.data.backfill_id}`);
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
        const { sampled: queued } = await claimAndQueue(
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

/**
 * Backfills as the API shows them: evaluated so far (each finished evaluation, with feedback or an
 * error) out of queued — the evaluations of all of them counted in one query.
 */
async function backfillsToWire(db: Sql, backfills: RuleBackfill[], rateOf: (ruleId: string) => number): Promise<WireBackfill[]> {
  if (backfills.length === 0) return [];
  const counts = await db.prisma.evaluation.groupBy({
    by: ["backfillId"],
    where: { backfillId: { in: backfills.map((b) => b.id) } },
    _count: { _all: true },
    _max: { createdAt: true },
  });
  const done = new Map(counts.map((c) => [c.backfillId, { n: c._count._all, last: c._max.createdAt }]));
  return backfills.map((b) => {
    const { n, last } = done.get(b.id) ?? { n: 0, last: null };
    const expected = b.scanned ? b.runsQueued : Math.max(b.runsQueued, Math.round(b.runsTotal * rateOf(b.ruleId)));
    const completed = b.scanned && n >= b.runsQueued;
    return {
      id: b.id,
      rule_id: b.ruleId,
      start_time: isoFromDb(b.startTime)!,
      end_time: isoFromDb(b.endTime)!,
      status: completed ? "completed" : "running",
      runs_total: b.runsTotal,
      runs_queued: b.runsQueued,
      runs_evaluated: n,
      progress: completed || expected === 0 ? 1 : Math.min(0.99, n / expected),
      created_at: isoFromDb(b.createdAt)!,
      completed_at: completed ? isoFromDb(last ?? b.createdAt) : null,
    };
  });
}

export async function readBackfill(db: Sql, workspaceId: string, id: string): Promise<WireBackfill> {
  const row = await db.prisma.ruleBackfill.findFirstOrThrow({
    where: { id, workspaceId },
    include: { rule: { select: { samplingRate: true } } },
  });
  return (await backfillsToWire(db, [row], () => row.rule.samplingRate))[0];
}

/** The rule's backfills, newest first. */
export async function listBackfills(db: Sql, workspaceId: string, ruleId: string): Promise<WireBackfill[]> {
  const rule = await loadRule(db, workspaceId, ruleId);
  const rows = await db.prisma.ruleBackfill.findMany({
    where: { ruleId: rule.id },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 50,
  });
  return backfillsToWire(db, rows, () => rule.samplingRate);
}

/** The newest backfill of each rule, for the rule list's `backfill_*` fields. */
export async function latestBackfills(db: Sql, rules: Rule[]): Promise<Map<string, WireBackfill>> {
  if (rules.length === 0) return new Map();
  const rows = await db.prisma.ruleBackfill.findMany({
    where: { ruleId: { in: rules.map((r) => r.id) } },
    orderBy: [{ ruleId: "asc" }, { createdAt: "desc" }, { id: "asc" }],
    distinct: ["ruleId"],
  });
  const rates = new Map(rules.map((r) => [r.id, r.samplingRate]));
  return new Map((await backfillsToWire(db, rows, (id) => rates.get(id) ?? 1)).map((b) => [b.rule_id, b]));
}
