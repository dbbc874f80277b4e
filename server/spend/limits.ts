import type { Sql } from "../db/client";
import { AppError, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import type { SpendLimitSet, SpendWindow, WireSpendLimit } from "./schema";

/** Where playground calls are recorded (server/playground), and so what its spend limit counts. */
export const PLAYGROUND_PROJECT = "playground";

type Target = "evaluators" | "playground" | "evaluator";
interface Limit {
  target: Target;
  evaluatorId: string | null;
  limitUsd: number;
  window: SpendWindow;
}

/** The start (UTC) of the limit's current window: the day, the ISO week (from Monday) or the month. */
export function windowStart(window: SpendWindow, now = new Date()): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (window === "daily") return day;
  if (window === "monthly") return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
}

const key = (target: Target, evaluatorId: string | null) => (target === "evaluator" ? `evaluator:${evaluatorId}` : target);

/**
 * What was spent since `since`: the evaluations' model calls (the workspace's, or one evaluator's),
 * or the calls recorded in the playground project. Each is one aggregate over an index range of the
 * window (evaluations by evaluator and time, runs by project and time).
 */
export async function spendSince(db: Sql, workspaceId: string, target: Target, evaluatorId: string | null, since: Date): Promise<number> {
  if (target === "playground") {
    const project = await db.prisma.project.findUnique({
      where: { workspaceId_name: { workspaceId, name: PLAYGROUND_PROJECT } },
      select: { id: true },
    });
    if (!project) return 0;
    const { _sum } = await db.prisma.run.aggregate({
      where: { workspaceId, projectId: project.id, startTime: { gte: since } },
      _sum: { totalCost: true },
    });
    return Number(_sum.totalCost ?? 0);
  }
  if (target === "evaluator" && !evaluatorId) return 0;
  const whose = evaluatorId && target === "evaluator" ? { evaluatorId } : { evaluator: { workspaceId } };
  const { _sum } = await db.prisma.evaluation.aggregate({
    where: { workspaceId, createdAt: { gte: since }, ...whose },
    _sum: { totalCost: true },
  });
  return Number(_sum.totalCost ?? 0);
}

function asLimit(row: { target: string; evaluatorId: string | null; limitUsd: unknown; window: string }): Limit {
  return {
    target: (row.target.startsWith("evaluator:") ? "evaluator" : row.target) as Target,
    evaluatorId: row.evaluatorId,
    limitUsd: Number(row.limitUsd),
    window: row.window as SpendWindow,
  };
}

async function withSpend(db: Sql, workspaceId: string, limit: Limit): Promise<WireSpendLimit> {
  const start = windowStart(limit.window);
  const spend = await spendSince(db, workspaceId, limit.target, limit.evaluatorId, start);
  return {
    target: limit.target,
    evaluator_id: limit.evaluatorId,
    limit_usd: limit.limitUsd,
    window: limit.window,
    window_start: isoFromDb(start.toISOString())!,
    spend_usd: spend,
    utilization_pct: limit.limitUsd > 0 ? (spend / limit.limitUsd) * 100 : spend > 0 ? 100 : 0,
  };
}

/** GET /spend-limits: the workspace's limits, each with its current window's spend. */
export async function listSpendLimits(db: Sql, workspaceId: string): Promise<WireSpendLimit[]> {
  const rows = await db.prisma.spendLimit.findMany({ where: { workspaceId }, orderBy: { target: "asc" } });
  return Promise.all(rows.map((r) => withSpend(db, workspaceId, asLimit(r))));
}

/** One limit with its spend, or null when none is set. */
export async function readSpendLimit(db: Sql, workspaceId: string, target: Target, evaluatorId: string | null = null) {
  const row = await db.prisma.spendLimit.findUnique({ where: { workspaceId_target: { workspaceId, target: key(target, evaluatorId) } } });
  return row ? withSpend(db, workspaceId, asLimit(row)) : null;
}

/** PUT /spend-limits: sets (or with limit_usd null, removes) one limit; answers the workspace's limits. */
export async function setSpendLimit(db: Sql, workspaceId: string, input: SpendLimitSet): Promise<WireSpendLimit[]> {
  const evaluatorId = input.evaluator_id ?? null;
  if (evaluatorId && !(await db.prisma.evaluator.findFirst({ where: { id: evaluatorId, workspaceId }, select: { id: true } }))) {
    throw notFound(`Evaluator ${evaluatorId} not found.`);
  }
  const target = key(input.target, evaluatorId);
  if (input.limit_usd === null) {
    await db.prisma.spendLimit.deleteMany({ where: { workspaceId, target } });
  } else {
    const data = { limitUsd: input.limit_usd, window: input.window, evaluatorId, updatedAt: new Date() };
    await db.prisma.spendLimit.upsert({
      where: { workspaceId_target: { workspaceId, target } },
      create: { workspaceId, target, ...data },
      update: data,
    });
  }
  return listSpendLimits(db, workspaceId);
}

/** Dollars as people read them: whole cents, or enough digits to show a tiny amount. */
const money = (n: number) =>
  n === 0 || n >= 0.01 ? String(+n.toFixed(4)) : n.toFixed(Math.min(12, Math.ceil(-Math.log10(n)) + 1)).replace(/0+$/, "");

/** Why spending must stop (a limit reached), or null when it may go on. */
export async function spendBlocked(db: Sql, workspaceId: string, targets: { target: Target; evaluatorId?: string }[]) {
  const keys = targets.map((t) => key(t.target, t.evaluatorId ?? null));
  const rows = await db.prisma.spendLimit.findMany({ where: { workspaceId, target: { in: keys } } });
  for (const row of rows) {
    const limit = await withSpend(db, workspaceId, asLimit(row));
    if (limit.spend_usd >= limit.limit_usd) {
      const whose = limit.target === "evaluator" ? "this evaluator's" : `the workspace's ${limit.target}`;
      return `${whose} ${limit.window} spend limit of $${money(limit.limit_usd)} is reached ($${money(limit.spend_usd)} spent since ${limit.window_start})`;
    }
  }
  return null;
}

/** The playground refuses a call once its limit is reached (429, with why). */
export async function assertPlaygroundSpend(db: Sql, workspaceId: string): Promise<void> {
  const blocked = await spendBlocked(db, workspaceId, [{ target: "playground" }]);
  if (blocked) throw new AppError(429, `Playground call refused: ${blocked}.`);
}
