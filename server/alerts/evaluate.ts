import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { nameUuid } from "../core/uuid";
import { env } from "../env";
import { defineQueue, onEvery, onJobs } from "../jobs/queue";
import { eventKind, measureRule, stateFor } from "./measure";
import { queueNotifications } from "./notify";
import type { AlertState } from "./schema";
import { asRule, destinationsOf } from "./store";

/**
 * Alert rules are evaluated once per interval (ALERTS_INTERVAL_MS, a minute by default) however
 * many instances run jobs: every such process enqueues the interval's tick job under the same id
 * (pg-boss keeps one), one worker claims it and enqueues one evaluation job per enabled rule, again
 * under ids stable per rule × interval; and each rule's row records the last interval evaluated,
 * checked under its row lock, so a job run again (a lost lease) changes nothing twice.
 */
interface Tick {
  slot: string;
}
interface Evaluation {
  rule_id: string;
  slot: string;
}

const tickQueue = defineQueue<Tick>("alert-tick", { batchSize: 1 });
const evaluationQueue = defineQueue<Evaluation>("alert-evaluate", { batchSize: 10 });

const slotOf = (ms: number, interval: number) => new Date(Math.floor(ms / interval) * interval).toISOString();

/** Enqueues this interval's tick (the same job from every instance). */
export async function tick(db: Sql, now = Date.now()): Promise<void> {
  const slot = slotOf(now, env().ALERTS_INTERVAL_MS);
  await tickQueue.enqueue(db, [{ id: nameUuid(`alert-tick:${slot}`), data: { slot } }]);
}

/** A tick: one evaluation job per enabled rule not yet evaluated for the slot. A late tick (workers were down) is dropped. */
async function fanOut(db: Sql, slot: string): Promise<void> {
  if (Date.now() - new Date(slot).getTime() > 3 * env().ALERTS_INTERVAL_MS) return;
  const rules = await db.prisma.alertRule.findMany({
    where: { isEnabled: true, OR: [{ lastSlot: null }, { lastSlot: { lt: new Date(slot) } }] },
    select: { id: true },
  });
  await evaluationQueue.enqueue(
    db,
    rules.map((r) => ({ id: nameUuid(`alert-evaluate:${r.id}:${slot}`), data: { rule_id: r.id, slot } })),
  );
}

/**
 * Evaluates one rule for a slot: measures its metric over the window ending now, then under the
 * rule's row lock (skipping a slot already evaluated) stores the state and value, records a change
 * of state as an event and, unless muted, queues its notifications — all in one transaction. The
 * lock is the claim itself: an update of the slot only where it is still due, which a concurrent
 * evaluation of the same slot waits on and then finds no longer due.
 */
export async function evaluateAlert(db: Sql, ruleId: string, slot: string): Promise<void> {
  const row = await db.prisma.alertRule.findUnique({ where: { id: ruleId } });
  if (!row || !row.isEnabled || (row.lastSlot && row.lastSlot.toISOString() >= slot)) return;
  const rule = asRule(row);
  const measured = await measureRule(db, rule, new Date());
  const next = stateFor(rule, measured.value);
  await db.transaction(async (tx) => {
    const due = { id: ruleId, OR: [{ lastSlot: null }, { lastSlot: { lt: new Date(slot) } }] };
    const claimed = await tx.prisma.alertRule.updateMany({ where: due, data: { lastSlot: new Date(slot) } });
    if (claimed.count === 0) return;
    const current = await tx.prisma.alertRule.findUniqueOrThrow({ where: { id: ruleId }, select: { state: true, mutedUntil: true } });
    const now = new Date();
    const muted = !!current.mutedUntil && current.mutedUntil > now;
    await tx.prisma.alertRule.update({
      where: { id: ruleId },
      data: {
        lastValue: measured.value,
        lastSource: measured.source,
        lastEvaluatedAt: now,
        state: next,
        ...(current.state === next ? {} : { stateSince: now }),
      },
    });
    const kind = eventKind(current.state as AlertState, next);
    if (!kind) return;
    const eventId = randomUUID();
    await tx.prisma.alertEvent.create({
      data: {
        id: eventId,
        workspaceId: rule.workspaceId,
        ruleId,
        kind,
        fromState: current.state,
        toState: next,
        value: measured.value,
        threshold: rule.threshold,
        comparison: rule.comparison,
        windowStart: measured.windowStart,
        windowEnd: measured.windowEnd,
        source: measured.source,
      },
    });
    if ((kind === "fired" || kind === "resolved") && !muted) {
      await queueNotifications(tx, rule.workspaceId, ruleId, eventId, destinationsOf(row).length);
    }
  });
}

onJobs(tickQueue, async (db, jobs) => {
  for (const job of jobs) await fanOut(db, job.data.slot);
});

/** A batch's rules are evaluated side by side; one that fails is run again by pg-boss without the others' changes repeating. */
onJobs(evaluationQueue, async (db, jobs) => {
  const results = await Promise.allSettled(jobs.map((job) => evaluateAlert(db, job.data.rule_id, job.data.slot)));
  const failure = results.find((r) => r.status === "rejected");
  if (failure) throw failure.reason;
});

onEvery("alert-tick", () => env().ALERTS_INTERVAL_MS / 1000, tick);
