import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { Prisma, type RunRule } from "../db/generated/client";
import { badRequest, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { checkEgressUrl } from "../egress/http";
import { isUuid } from "../core/uuid";
import { findDataset } from "../datasets/service";
import { readSession } from "../sessions/service";
import { loadQueue } from "../review/queues/queues";
import { checkRuleFilter } from "./match";
import type { AddFeedback, RuleCreate, RuleUpdate, Webhook, WireRule } from "./schema";

/** A rule as stored; its JSON columns hold what `ruleCreate` validated. */
export type Rule = Omit<RunRule, "addFeedback" | "webhooks"> & { addFeedback: AddFeedback | null; webhooks: Webhook[] };
const asRule = (row: RunRule) => row as Rule;

/** Header values often carry secrets: they are stored and sent, but never shown again. */
function ruleToWire(rule: Rule): WireRule {
  return {
    id: rule.id,
    tenant_id: rule.workspaceId,
    session_id: rule.projectId,
    display_name: rule.displayName,
    filter: rule.filter,
    sampling_rate: rule.samplingRate,
    is_enabled: rule.isEnabled,
    add_to_dataset_id: rule.addToDatasetId,
    add_to_annotation_queue_id: rule.addToAnnotationQueueId,
    add_feedback: rule.addFeedback,
    webhooks: rule.webhooks.map((w) => ({
      url: w.url,
      headers: w.headers ? Object.fromEntries(Object.keys(w.headers).map((k) => [k, "<redacted>" as const])) : null,
    })),
    created_at: isoFromDb(rule.createdAt)!,
    updated_at: isoFromDb(rule.updatedAt)!,
  };
}

const missing = (id: string) => notFound(`Rule ${id} not found.`);

async function checkReferences(
  db: Sql,
  workspaceId: string,
  rule: {
    session_id?: string;
    add_to_dataset_id?: string | null;
    add_to_annotation_queue_id?: string | null;
    filter?: string | null;
    webhooks?: Webhook[] | null;
  },
) {
  if (rule.session_id) await readSession(db, workspaceId, rule.session_id);
  if (rule.add_to_dataset_id) await findDataset(db, workspaceId, rule.add_to_dataset_id);
  if (rule.add_to_annotation_queue_id) await loadQueue(db, workspaceId, rule.add_to_annotation_queue_id);
  if (rule.filter) checkRuleFilter(rule.filter);
  for (const hook of rule.webhooks ?? []) checkEgressUrl(hook.url);
}

function checkHasAction(rule: {
  add_to_dataset_id: string | null;
  add_to_annotation_queue_id: string | null;
  add_feedback: AddFeedback | null;
  webhooks: Webhook[];
}) {
  if (!rule.add_to_dataset_id && !rule.add_to_annotation_queue_id && !rule.add_feedback && rule.webhooks.length === 0) {
    throw badRequest("A rule needs at least one action: add_to_dataset_id, add_to_annotation_queue_id, add_feedback or webhooks.");
  }
}

/** A JSON column's value to write: SQL NULL for null. */
const jsonOrNull = (value: AddFeedback | null | undefined) => (value ? (value as Prisma.InputJsonObject) : Prisma.DbNull);

export async function createRule(db: Sql, workspaceId: string, input: RuleCreate): Promise<WireRule> {
  checkHasAction({
    add_to_dataset_id: input.add_to_dataset_id ?? null,
    add_to_annotation_queue_id: input.add_to_annotation_queue_id ?? null,
    add_feedback: input.add_feedback ?? null,
    webhooks: input.webhooks,
  });
  await checkReferences(db, workspaceId, input);
  const row = await db.prisma.runRule.create({
    data: {
      id: randomUUID(),
      workspaceId,
      projectId: input.session_id,
      displayName: input.display_name,
      filter: input.filter || null,
      samplingRate: input.sampling_rate,
      isEnabled: input.is_enabled,
      addToDatasetId: input.add_to_dataset_id ?? null,
      addToAnnotationQueueId: input.add_to_annotation_queue_id ?? null,
      addFeedback: jsonOrNull(input.add_feedback),
      webhooks: input.webhooks,
    },
  });
  return ruleToWire(asRule(row));
}

export async function loadRule(db: Sql, workspaceId: string, id: string): Promise<Rule> {
  const row = isUuid(id) ? await db.prisma.runRule.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw missing(id);
  return asRule(row);
}

export async function readRule(db: Sql, workspaceId: string, id: string): Promise<WireRule> {
  return ruleToWire(await loadRule(db, workspaceId, id));
}

export async function listRules(
  db: Sql,
  workspaceId: string,
  q: { session_id?: string; offset: number; limit: number },
): Promise<WireRule[]> {
  const rows = await db.prisma.runRule.findMany({
    where: { workspaceId, projectId: q.session_id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: q.limit,
    skip: q.offset,
  });
  return rows.map((row) => ruleToWire(asRule(row)));
}

/** The enabled rules of the workspace on these projects, oldest first. */
export async function enabledRules(db: Sql, workspaceId: string, projectIds: string[]): Promise<Rule[]> {
  const rows = await db.prisma.runRule.findMany({
    where: { workspaceId, isEnabled: true, projectId: { in: projectIds } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(asRule);
}

export async function updateRule(db: Sql, workspaceId: string, id: string, change: RuleUpdate): Promise<WireRule> {
  const current = await loadRule(db, workspaceId, id);
  checkHasAction({
    add_to_dataset_id: change.add_to_dataset_id !== undefined ? change.add_to_dataset_id : current.addToDatasetId,
    add_to_annotation_queue_id:
      change.add_to_annotation_queue_id !== undefined ? change.add_to_annotation_queue_id : current.addToAnnotationQueueId,
    add_feedback: change.add_feedback !== undefined ? change.add_feedback : current.addFeedback,
    webhooks: change.webhooks !== undefined ? (change.webhooks ?? []) : current.webhooks,
  });
  await checkReferences(db, workspaceId, change);
  const row = await db.prisma.runRule.update({
    where: { id: current.id },
    data: {
      updatedAt: new Date(),
      displayName: change.display_name,
      projectId: change.session_id,
      filter: change.filter === undefined ? undefined : change.filter || null,
      samplingRate: change.sampling_rate,
      isEnabled: change.is_enabled,
      addToDatasetId: change.add_to_dataset_id,
      addToAnnotationQueueId: change.add_to_annotation_queue_id,
      addFeedback: change.add_feedback === undefined ? undefined : jsonOrNull(change.add_feedback),
      webhooks: change.webhooks === undefined ? undefined : (change.webhooks ?? []),
    },
  });
  return ruleToWire(asRule(row));
}

/** DELETE /runs/rules/{id}: the rule, with its run marks and logs (the database's cascades). */
export async function deleteRule(db: Sql, workspaceId: string, id: string): Promise<void> {
  await loadRule(db, workspaceId, id);
  await db.prisma.runRule.deleteMany({ where: { id, workspaceId } });
}

/** GET /runs/rules/{id}/logs: what each action did, newest first. */
export async function ruleLogs(db: Sql, workspaceId: string, id: string, page: { offset: number; limit: number }) {
  await loadRule(db, workspaceId, id);
  const rows = await db.prisma.runRuleLog.findMany({
    where: { ruleId: id, workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit,
    skip: page.offset,
  });
  return rows.map((r) => ({
    id: r.id,
    run_id: r.runId,
    action: r.action,
    outcome: r.outcome,
    attempts: r.attempts,
    status_code: r.statusCode,
    detail: r.detail,
    created_at: isoFromDb(r.createdAt),
  }));
}
