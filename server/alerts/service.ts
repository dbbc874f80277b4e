import { recordAudit } from "../audit/record";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Sql } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { AppError, badRequest, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { checkEgressUrl, EgressRefused } from "../egress/http";
import { compileFilter } from "../runs/filter/index";
import { loadAlert } from "./load";
import { measureRule } from "./measure";
import { noticeOf, sendNotice } from "./notify";
import {
  missingFields,
  type AlertCreate,
  type AlertUpdate,
  type alertListQuery,
  type DestinationInput,
  type historyQuery,
  type WireAlert,
  type WireAlertEvent,
} from "./schema";
import { asRule, eventToWire, sealDestinations, toWire } from "./store";

const load = loadAlert;

/** The project and evaluator are the workspace's, the filter parses, and the URLs may be called. */
async function check(
  db: Sql,
  workspaceId: string,
  rule: { session_id?: string | null; evaluator_id?: string | null; filter?: string | null },
  destinations?: DestinationInput[],
) {
  if (rule.session_id && !(await db.prisma.project.findFirst({ where: { id: rule.session_id, workspaceId }, select: { id: true } })))
    throw notFound(`Project (session) ${rule.session_id} not found.`);
  if (rule.evaluator_id && !(await db.prisma.evaluator.findFirst({ where: { id: rule.evaluator_id, workspaceId }, select: { id: true } })))
    throw notFound(`Evaluator ${rule.evaluator_id} not found.`);
  if (rule.filter) {
    try {
      compileFilter(rule.filter, "r");
    } catch (error) {
      throw badRequest(`Invalid filter: ${(error as Error).message}`);
    }
  }
  for (const d of destinations ?? []) {
    try {
      if (d.url) checkEgressUrl(d.url);
    } catch (error) {
      if (error instanceof EgressRefused) throw badRequest(`Destination ${d.kind}: ${error.message}`);
      throw error;
    }
  }
}

const mutedUntil = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

/** POST /alerts */
export async function createAlert(db: Sql, workspaceId: string, input: AlertCreate): Promise<WireAlert> {
  await check(db, workspaceId, input, input.destinations);
  const row = await db.prisma.$transaction(async (tx) => {
    const created = await tx.alertRule.create({
      data: {
        id: randomUUID(),
        workspaceId,
        projectId: input.metric === "evaluator_spend_share" ? null : (input.session_id ?? null),
        evaluatorId: input.evaluator_id ?? null,
        name: input.name,
        filter: input.filter || null,
        rootRunsOnly: input.root_runs_only,
        metric: input.metric,
        feedbackKey: input.feedback_key ?? null,
        feedbackValue: input.feedback_value ?? null,
        comparison: input.comparison,
        threshold: input.threshold,
        windowMinutes: input.window_minutes,
        destinations: sealDestinations(input.destinations) as Prisma.InputJsonValue,
        isEnabled: input.is_enabled,
        mutedUntil: mutedUntil(input.muted_until) ?? null,
      },
    });
    await recordAudit(tx, {
      workspaceId,
      action: "alert_rule.create",
      target: { type: "alert_rule", id: created.id },
      after: toWire(created),
    });
    return created;
  });
  return toWire(row);
}

export const readAlert = async (db: Sql, workspaceId: string, id: string) => toWire(await load(db, workspaceId, id));

/** GET /alerts: the workspace's rules (or one project's), oldest first. */
export async function listAlerts(db: Sql, workspaceId: string, q: z.infer<typeof alertListQuery>): Promise<WireAlert[]> {
  const rows = await db.prisma.alertRule.findMany({
    where: { workspaceId, ...(q.session_id ? { projectId: q.session_id } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    skip: q.offset,
    take: q.limit,
  });
  return rows.map(toWire);
}

/** PATCH /alerts/{id}: a changed definition starts over (no data until its next evaluation). */
export async function updateAlert(db: Sql, workspaceId: string, id: string, change: AlertUpdate): Promise<WireAlert> {
  const current = await load(db, workspaceId, id);
  const merged = {
    metric: change.metric ?? current.metric,
    session_id: change.session_id === undefined ? current.projectId : change.session_id,
    feedback_key: change.feedback_key === undefined ? current.feedbackKey : change.feedback_key,
    feedback_value: change.feedback_value === undefined ? current.feedbackValue : change.feedback_value,
  };
  const missing = missingFields(merged);
  if (missing.length) throw badRequest(missing.join("; "));
  await check(db, workspaceId, change, change.destinations);
  const redefined = (["metric", "session_id", "filter", "root_runs_only", "feedback_key", "feedback_value", "evaluator_id"] as const).some(
    (k) => change[k] !== undefined,
  );
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.alertRule.update({
      where: { id: current.id },
      data: {
        name: change.name,
        projectId: merged.metric === "evaluator_spend_share" ? null : merged.session_id,
        evaluatorId: change.evaluator_id,
        filter: change.filter === undefined ? undefined : change.filter || null,
        rootRunsOnly: change.root_runs_only,
        metric: change.metric,
        feedbackKey: change.feedback_key,
        feedbackValue: change.feedback_value,
        comparison: change.comparison,
        threshold: change.threshold,
        windowMinutes: change.window_minutes,
        destinations: change.destinations ? (sealDestinations(change.destinations) as Prisma.InputJsonValue) : undefined,
        isEnabled: change.is_enabled,
        mutedUntil: mutedUntil(change.muted_until),
        ...(redefined ? { lastValue: null, lastSource: null } : {}),
        updatedAt: new Date(),
      },
    });
    await recordAudit(tx, {
      workspaceId,
      action: "alert_rule.update",
      target: { type: "alert_rule", id: current.id },
      before: toWire(current),
      after: toWire(updated),
    });
    return updated;
  });
  return toWire(row);
}

export async function deleteAlert(db: Sql, workspaceId: string, id: string): Promise<void> {
  const row = await load(db, workspaceId, id);
  await db.prisma.$transaction(async (tx) => {
    await tx.alertRule.deleteMany({ where: { id: row.id, workspaceId } });
    await recordAudit(tx, { workspaceId, action: "alert_rule.delete", target: { type: "alert_rule", id: row.id }, before: toWire(row) });
  });
}

/** GET /alerts/{id}/history: the rule's state changes and tests, newest first, each with its deliveries. */
export async function alertHistory(db: Sql, workspaceId: string, id: string, q: z.infer<typeof historyQuery>): Promise<WireAlertEvent[]> {
  const rule = await load(db, workspaceId, id);
  const events = await db.prisma.alertEvent.findMany({
    where: { ruleId: rule.id, workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    skip: q.offset,
    take: q.limit,
    include: { deliveries: { orderBy: { createdAt: "asc" } } },
  });
  return events.map((e) =>
    eventToWire(
      e,
      e.deliveries.map((d) => ({
        destination: d.destination,
        kind: d.kind,
        outcome: d.outcome,
        status_code: d.statusCode,
        attempts: d.attempts,
        detail: d.detail,
        created_at: isoFromDb(d.createdAt)!,
      })),
    ),
  );
}

/**
 * POST /alerts/{id}/test: measures the metric now and sends a "test" notification to every
 * destination at once (not queued: the answer says how each went); recorded in the history.
 * A destination that refuses it makes a 502 naming it.
 */
export async function testAlert(db: Sql, workspaceId: string, id: string) {
  const row = await load(db, workspaceId, id);
  const rule = asRule(row);
  const measured = await measureRule(db, rule, new Date());
  const event = await db.prisma.alertEvent.create({
    data: {
      id: randomUUID(),
      workspaceId,
      ruleId: rule.id,
      kind: "test",
      fromState: rule.state,
      toState: rule.state,
      value: measured.value,
      threshold: rule.threshold,
      comparison: rule.comparison,
      windowStart: measured.windowStart,
      windowEnd: measured.windowEnd,
      source: measured.source,
    },
  });
  const notice = (await noticeOf(db, workspaceId, event.id))!;
  const destinations = (row.destinations as unknown[]).length;
  if (destinations === 0) throw badRequest("The alert has no destinations to send a test notification to.");
  const results = [];
  for (let i = 0; i < destinations; i++) {
    const delivery = randomUUID();
    const outcome = await sendNotice(db, notice, i, delivery);
    await db.prisma.alertDelivery.create({
      data: {
        id: delivery,
        workspaceId,
        ruleId: rule.id,
        eventId: event.id,
        destination: i,
        kind: outcome.detail.split(" ")[0],
        outcome: outcome.ok ? "success" : "error",
        statusCode: outcome.status,
        detail: outcome.detail.slice(0, 2000),
      },
    });
    results.push({ destination: i, ok: outcome.ok, status_code: outcome.status, detail: outcome.detail });
  }
  const failed = results.filter((r) => !r.ok);
  if (failed.length) throw new AppError(502, `The test notification was not accepted: ${failed.map((f) => f.detail).join("; ")}`);
  return { value: measured.value, source: measured.source, deliveries: results };
}
