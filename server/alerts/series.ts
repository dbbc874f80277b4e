import type { Sql } from "../db/client";
import { isoFromDb } from "../core/time";
import { measureRule } from "./measure";
import { asRule } from "./store";
import { loadAlert } from "./load";

const POINTS = 36;
const MIN_SPAN_MS = 6 * 3_600_000;

/**
 * The metric's recent values for the rule's chart: 36 points over the last 6 hours (or 12 windows,
 * when longer), each the value over the rule's window ending there — what an evaluation then would
 * have seen. Four points are measured at a time. The evaluator spend share has one point, now.
 */
export async function alertSeries(db: Sql, workspaceId: string, id: string) {
  const rule = asRule(await loadAlert(db, workspaceId, id));
  const now = Date.now();
  if (rule.metric === "evaluator_spend_share") {
    const m = await measureRule(db, rule, new Date(now));
    return { points: [{ time: isoFromDb(new Date(now).toISOString())!, value: m.value }], threshold: rule.threshold, source: m.source };
  }
  const span = Math.max(MIN_SPAN_MS, 12 * rule.windowMinutes * 60_000);
  const step = span / (POINTS - 1);
  const ends = Array.from({ length: POINTS }, (_, i) => new Date(now - span + i * step));
  const measured: Awaited<ReturnType<typeof measureRule>>[] = [];
  for (let i = 0; i < ends.length; i += 4)
    measured.push(...(await Promise.all(ends.slice(i, i + 4).map((end) => measureRule(db, rule, end)))));
  return {
    points: measured.map((m) => ({ time: isoFromDb(m.windowEnd.toISOString())!, value: m.value })),
    threshold: rule.threshold,
    source: measured.at(-1)?.source ?? "rollups",
  };
}
