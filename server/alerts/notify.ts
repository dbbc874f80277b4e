import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { nameUuid } from "../core/uuid";
import { isoFromDb } from "../core/time";
import { postJson } from "../egress/http";
import { env } from "../env";
import { defineQueue, onJobs } from "../jobs/queue";
import { signature, SIGNATURE_HEADER } from "../egress/signature";
import { bodyFor, DELIVERY_HEADER, type AlertNotice } from "./payloads";
import { asRule, destinationsOf } from "./store";

/**
 * A notification is a durable job per event × destination, enqueued in the transaction that
 * records the event: it is delivered at least once, whichever process dies when. Its `delivery` id
 * is the same for every attempt (the receiver gets it as X-Tracelight-Delivery) and a success is
 * logged under it, so a job run twice after success sends nothing more.
 */
export interface NotifyJob {
  workspace_id: string;
  rule_id: string;
  event_id: string;
  destination: number;
  delivery: string;
  attempt: number;
}

/** Failed attempts are retried with backoff (ALERT_RETRY_BASE_MS, doubling) up to this many in all. */
export const NOTIFY_ATTEMPTS = 8;

const notifyQueue = defineQueue<NotifyJob>("alert-notify", { batchSize: 10 });
const jobId = (job: NotifyJob) => nameUuid(`${job.delivery}:${job.attempt}`);

/** Queues the event's notification to each of the rule's destinations, through `db` (the event's transaction). */
export async function queueNotifications(db: Sql, workspaceId: string, ruleId: string, eventId: string, destinations: number) {
  const jobs = Array.from({ length: destinations }, (_, i) => ({
    workspace_id: workspaceId,
    rule_id: ruleId,
    event_id: eventId,
    destination: i,
    delivery: nameUuid(`alert-delivery:${eventId}:${i}`),
    attempt: 1,
  }));
  await notifyQueue.enqueue(
    db,
    jobs.map((data) => ({ id: jobId(data), data })),
  );
}

interface Outcome {
  ok: boolean;
  status: number | null;
  detail: string;
}

async function log(db: Sql, job: NotifyJob, id: string, kind: string, o: Outcome) {
  // skipDuplicates: a job run again (a lost lease) logs its delivery once.
  await db.prisma.alertDelivery.createMany({
    data: {
      id,
      workspaceId: job.workspace_id,
      ruleId: job.rule_id,
      eventId: job.event_id,
      destination: job.destination,
      kind,
      outcome: o.ok ? "success" : "error",
      statusCode: o.status,
      attempts: job.attempt,
      detail: o.detail.slice(0, 2000),
    },
    skipDuplicates: true,
  });
}

/** The notice an event makes, read back from the event and its rule. */
export async function noticeOf(db: Sql, workspaceId: string, eventId: string): Promise<AlertNotice | null> {
  const event = await db.prisma.alertEvent.findFirst({ where: { id: eventId, workspaceId }, include: { rule: true } });
  if (!event) return null;
  const rule = asRule(event.rule);
  const project = rule.projectId ? await db.prisma.project.findFirst({ where: { id: rule.projectId }, select: { name: true } }) : null;
  return {
    eventId: event.id,
    kind: event.kind as AlertNotice["kind"],
    rule: { ...rule, projectName: project?.name ?? null },
    fromState: event.fromState,
    toState: event.toState,
    value: event.value,
    windowStart: isoFromDb(event.windowStart)!,
    windowEnd: isoFromDb(event.windowEnd)!,
    source: event.source,
  };
}

/** Sends one notice to one destination (signed when it has a secret), once. */
export async function sendNotice(db: Sql, notice: AlertNotice, index: number, delivery: string): Promise<Outcome & { retry: boolean }> {
  const row = await db.prisma.alertRule.findUnique({ where: { id: notice.rule.id } });
  const destination = row ? destinationsOf(row)[index] : undefined;
  if (!destination) return { ok: false, status: null, detail: `destination ${index} is no longer on the rule`, retry: false };
  const body = bodyFor(notice, destination);
  const headers: Record<string, string> = { [DELIVERY_HEADER]: delivery };
  if (destination.secret) headers[SIGNATURE_HEADER] = signature(destination.secret, JSON.stringify(body));
  const result = await postJson(destination.url, body, { headers, maxAttempts: 1 });
  // Refused URLs (never attempted) and 4xx answers other than 429 will not pass by waiting.
  const retry = result.attempts > 0 && (result.status === null || result.status >= 500 || result.status === 429);
  return { ok: result.ok, status: result.status, detail: `${destination.kind} ${destination.url}: ${result.detail}`, retry };
}

async function deliver(db: Sql, job: NotifyJob): Promise<void> {
  const done = await db.prisma.alertDelivery.findUnique({ where: { id: job.delivery }, select: { id: true } });
  if (done) return;
  const notice = await noticeOf(db, job.workspace_id, job.event_id);
  if (!notice) return; // the rule (and its events) are gone
  const row = await db.prisma.alertRule.findUnique({ where: { id: job.rule_id }, select: { destinations: true } });
  const kind = (row && destinationsOf(row)[job.destination]?.kind) ?? "unknown";
  const outcome = await sendNotice(db, notice, job.destination, job.delivery);
  if (outcome.ok) return log(db, job, job.delivery, kind, outcome);
  const again = outcome.retry && job.attempt < NOTIFY_ATTEMPTS;
  const waitMs = env().ALERT_RETRY_BASE_MS * 2 ** (job.attempt - 1);
  const detail = again
    ? `${outcome.detail} (attempt ${job.attempt} of ${NOTIFY_ATTEMPTS}, next in ${Math.round(waitMs / 1000)} s)`
    : outcome.retry
      ? `${outcome.detail} (gave up after ${NOTIFY_ATTEMPTS} attempts)`
      : outcome.detail;
  await db.transaction(async (tx) => {
    await log(tx, job, randomUUID(), kind, { ...outcome, detail });
    if (!again) return;
    const next = { ...job, attempt: job.attempt + 1 };
    await notifyQueue.enqueue(tx, [{ id: jobId(next), data: next, startAfter: new Date(Date.now() + waitMs) }]);
  });
}

/** A batch's notifications go out side by side (a slow receiver does not hold up the others). */
onJobs(notifyQueue, async (db, jobs) => {
  const results = await Promise.allSettled(jobs.map((job) => deliver(db, job.data)));
  const failure = results.find((r) => r.status === "rejected");
  if (failure) throw failure.reason;
});
