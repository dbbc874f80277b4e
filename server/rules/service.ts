import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { Prisma } from "../db/generated/client";
import { badRequest } from "../core/errors";
import { isoFromDb } from "../core/time";
import { checkEgressUrl } from "../egress/http";
import { findDataset } from "../datasets/service";
import { insertCodeEvaluator, insertEvaluator, loadEvaluator } from "../evaluators/store";
import { readSession } from "../sessions/service";
import { EVALUATOR_PROJECT } from "../sessions/v2";
import { loadQueue } from "../review/queues/queues";
import { pairwiseRefusal } from "./actions";
import { latestBackfills, startBackfill } from "./backfill";
import { startCursor } from "./claim";
import { checkRuleFilter } from "./match";
import type { AddFeedback, RuleCreate, RuleFilter, RuleUpdate, Webhook, WireBackfill, WireRule, WireRuleLog } from "./schema";
import { asRule, loadRule, sealWebhooks, type Rule } from "./store";
import { recordAudit } from "../audit/record";

/** Header values often carry secrets: they are stored and sent, but never shown again. */
function ruleToWire(rule: Rule, evaluatorName: string | null, backfill: WireBackfill | undefined): WireRule {
  return {
    id: rule.id,
    tenant_id: rule.workspaceId,
    session_id: rule.projectId,
    dataset_id: rule.datasetId,
    evaluator_id: rule.evaluatorId,
    evaluator_name: evaluatorName,
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
      signed: Boolean(w.secret_sealed),
    })),
    backfill_id: backfill?.id ?? null,
    backfill_from: backfill?.start_time ?? null,
    backfill_status: backfill?.status ?? null,
    backfill_progress: backfill?.progress ?? null,
    backfill_completed_at: backfill?.completed_at ?? null,
    created_at: isoFromDb(rule.createdAt)!,
    updated_at: isoFromDb(rule.updatedAt)!,
  };
}

/** Rules as the API answers them: with their evaluator's name and their newest backfill's progress. */
async function rulesToWire(db: Sql, rules: Rule[]): Promise<WireRule[]> {
  const evaluatorIds = [...new Set(rules.flatMap((r) => (r.evaluatorId ? [r.evaluatorId] : [])))];
  const [evaluators, backfills] = await Promise.all([
    evaluatorIds.length ? db.prisma.evaluator.findMany({ where: { id: { in: evaluatorIds } }, select: { id: true, name: true } }) : [],
    latestBackfills(db, rules),
  ]);
  const names = new Map(evaluators.map((e) => [e.id, e.name]));
  return rules.map((r) => ruleToWire(r, r.evaluatorId ? (names.get(r.evaluatorId) ?? null) : null, backfills.get(r.id)));
}

async function checkReferences(
  db: Sql,
  workspaceId: string,
  rule: {
    session_id?: string | null;
    dataset_id?: string | null;
    evaluator_id?: string | null;
    evaluators?: unknown[] | null;
    add_to_dataset_id?: string | null;
    add_to_annotation_queue_id?: string | null;
    filter?: string | null;
    webhooks?: Webhook[] | null;
  },
) {
  if (rule.session_id) {
    const project = await readSession(db, workspaceId, rule.session_id);
    // Each evaluation traces a run there: an evaluator on that project would judge its own calls, forever.
    if (project.name === EVALUATOR_PROJECT && (rule.evaluator_id || rule.evaluators?.length)) {
      throw badRequest(`An evaluator cannot be attached to the "${EVALUATOR_PROJECT}" project, where evaluators trace their own calls.`);
    }
  }
  if (rule.dataset_id) await findDataset(db, workspaceId, rule.dataset_id);
  if (rule.evaluator_id) await loadEvaluator(db, workspaceId, rule.evaluator_id);
  if (rule.add_to_dataset_id) await findDataset(db, workspaceId, rule.add_to_dataset_id);
  if (rule.add_to_annotation_queue_id) {
    const queue = await loadQueue(db, workspaceId, rule.add_to_annotation_queue_id);
    if (queue.queueType === "pairwise")
      throw badRequest(`add_to_annotation_queue_id: ${pairwiseRefusal(queue.name)}. Choose a single-run queue.`);
  }
  if (rule.filter) checkRuleFilter(rule.filter);
  for (const hook of rule.webhooks ?? []) checkEgressUrl(hook.url);
}

function checkHasAction(rule: {
  evaluator: boolean;
  add_to_dataset_id: string | null;
  add_to_annotation_queue_id: string | null;
  add_feedback: AddFeedback | null;
  /** How many (or which) webhooks the rule has. */
  webhooks: Webhook[] | number;
}) {
  if (
    !rule.evaluator &&
    !rule.add_to_dataset_id &&
    !rule.add_to_annotation_queue_id &&
    !rule.add_feedback &&
    !(typeof rule.webhooks === "number" ? rule.webhooks : rule.webhooks.length)
  ) {
    throw badRequest(
      "A rule needs at least one action: evaluator_id (or evaluators), add_to_dataset_id, add_to_annotation_queue_id, add_feedback or webhooks.",
    );
  }
}

/** `backfill_from` on a rule: its evaluator over the matching runs from then until now. */
async function backfillFrom(db: Sql, workspaceId: string, rule: Rule, from: Date | null | undefined) {
  if (!from) return;
  if (!rule.evaluatorId) throw badRequest("backfill_from needs an evaluator on the rule.");
  await startBackfill(db, workspaceId, rule.id, { start: from, end: new Date() });
}

/** A JSON column's value to write: SQL NULL for null. */
const jsonOrNull = (value: AddFeedback | null | undefined) => (value ? (value as Prisma.InputJsonObject) : Prisma.DbNull);

export async function createRule(db: Sql, workspaceId: string, input: RuleCreate): Promise<WireRule> {
  checkHasAction({
    evaluator: Boolean(input.evaluator_id || input.evaluators?.length || input.code_evaluators?.length),
    add_to_dataset_id: input.add_to_dataset_id ?? null,
    add_to_annotation_queue_id: input.add_to_annotation_queue_id ?? null,
    add_feedback: input.add_feedback ?? null,
    webhooks: input.webhooks,
  });
  if (input.backfill_from && !input.evaluator_id && !input.evaluators?.length && !input.code_evaluators?.length)
    throw badRequest("backfill_from needs an evaluator on the rule.");
  await checkReferences(db, workspaceId, input);
  const inline = input.evaluators?.[0]?.structured;
  const inlineCode = input.code_evaluators?.[0];
  const evaluatorId = inlineCode
    ? (await insertCodeEvaluator(db, workspaceId, input.display_name, inlineCode)).id
    : inline
      ? (
          await insertEvaluator(db, workspaceId, input.display_name, {
            prompt: inline.prompt,
            schema: inline.schema,
            template_format: inline.template_format,
            variable_mapping: inline.variable_mapping,
            model: typeof inline.model?.model === "string" ? inline.model.model : null,
          })
        ).id
      : (input.evaluator_id ?? null);
  const row = await db.transaction(async (tx) => {
    await startCursor(tx, workspaceId);
    return tx.prisma.runRule.create({
      data: {
        id: randomUUID(),
        workspaceId,
        projectId: input.session_id ?? null,
        datasetId: input.dataset_id ?? null,
        evaluatorId,
        displayName: input.display_name,
        filter: input.filter || null,
        samplingRate: input.sampling_rate,
        isEnabled: input.is_enabled,
        addToDatasetId: input.add_to_dataset_id ?? null,
        addToAnnotationQueueId: input.add_to_annotation_queue_id ?? null,
        addFeedback: jsonOrNull(input.add_feedback),
        webhooks: sealWebhooks(input.webhooks) as unknown as Prisma.InputJsonArray,
      },
    });
  });
  const rule = asRule(row);
  await backfillFrom(db, workspaceId, rule, input.backfill_from);
  const wire = (await rulesToWire(db, [rule]))[0];
  await recordAudit(db.prisma, { workspaceId, action: "rule.create", target: { type: "rule", id: wire.id }, after: wire });
  return wire;
}

export async function readRule(db: Sql, workspaceId: string, id: string): Promise<WireRule> {
  return (await rulesToWire(db, [await loadRule(db, workspaceId, id)]))[0];
}

export async function listRules(db: Sql, workspaceId: string, q: RuleFilter): Promise<WireRule[]> {
  const rows = await db.prisma.runRule.findMany({
    where: {
      workspaceId,
      projectId: q.kind === "dataset" ? null : q.projectId,
      datasetId: q.kind === "session" ? null : q.datasetId,
      evaluatorId: q.evaluatorId,
      ...(q.kind === "session" ? { NOT: { projectId: null } } : q.kind === "dataset" ? { NOT: { datasetId: null } } : {}),
      ...(q.nameContains ? { displayName: { contains: q.nameContains, mode: "insensitive" as const } } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: q.limit,
    skip: q.offset,
  });
  return rulesToWire(db, rows.map(asRule));
}

export async function updateRule(db: Sql, workspaceId: string, id: string, change: RuleUpdate): Promise<WireRule> {
  const current = await loadRule(db, workspaceId, id);
  checkHasAction({
    evaluator: Boolean(change.evaluator_id !== undefined ? change.evaluator_id : current.evaluatorId),
    add_to_dataset_id: change.add_to_dataset_id !== undefined ? change.add_to_dataset_id : current.addToDatasetId,
    add_to_annotation_queue_id:
      change.add_to_annotation_queue_id !== undefined ? change.add_to_annotation_queue_id : current.addToAnnotationQueueId,
    add_feedback: change.add_feedback !== undefined ? change.add_feedback : current.addFeedback,
    webhooks: change.webhooks !== undefined ? (change.webhooks ?? []) : current.webhooks.length,
  });
  await checkReferences(db, workspaceId, {
    ...change,
    evaluator_id: change.evaluator_id !== undefined ? change.evaluator_id : current.evaluatorId,
  });
  if (change.is_enabled) await startCursor(db, workspaceId);
  const row = await db.prisma.runRule.update({
    where: { id: current.id },
    data: {
      updatedAt: new Date(),
      displayName: change.display_name,
      projectId: change.session_id,
      ...(change.session_id ? { datasetId: null } : {}),
      evaluatorId: change.evaluator_id,
      filter: change.filter === undefined ? undefined : change.filter || null,
      samplingRate: change.sampling_rate,
      isEnabled: change.is_enabled,
      addToDatasetId: change.add_to_dataset_id,
      addToAnnotationQueueId: change.add_to_annotation_queue_id,
      addFeedback: change.add_feedback === undefined ? undefined : jsonOrNull(change.add_feedback),
      webhooks: change.webhooks === undefined ? undefined : (sealWebhooks(change.webhooks ?? []) as unknown as Prisma.InputJsonArray),
    },
  });
  const rule = asRule(row);
  await backfillFrom(db, workspaceId, rule, change.backfill_from);
  const wire = (await rulesToWire(db, [rule]))[0];
  await recordAudit(db.prisma, {
    workspaceId,
    action: "rule.update",
    target: { type: "rule", id },
    before: (await rulesToWire(db, [current]))[0],
    after: wire,
  });
  return wire;
}

/** DELETE /runs/rules/{id}: the rule, with its run marks and logs (the database's cascades). */
export async function deleteRule(db: Sql, workspaceId: string, id: string): Promise<void> {
  const current = await loadRule(db, workspaceId, id);
  const before = (await rulesToWire(db, [current]))[0];
  await db.prisma.$transaction(async (tx) => {
    await tx.runRule.deleteMany({ where: { id, workspaceId } });
    await recordAudit(tx, { workspaceId, action: "rule.delete", target: { type: "rule", id }, before });
  });
}

/** GET /runs/rules/{id}/logs: what each action did, newest first. */
export async function ruleLogs(db: Sql, workspaceId: string, id: string, page: { offset: number; limit: number }): Promise<WireRuleLog[]> {
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
    created_at: isoFromDb(r.createdAt)!,
  }));
}
