import type { Sql } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { sql } from "../db/sql";
import { badRequest, conflict } from "../core/errors";
import { isoFromDb } from "../core/time";
import type { EvaluatorCreate, EvaluatorUpdate, evaluatorListQuery } from "./schema";
import {
  asEvaluator,
  definitionOf,
  evaluatorToWire,
  insertCodeEvaluator,
  insertEvaluator,
  loadEvaluator,
  type Evaluator,
  type WireEvaluator,
} from "./store";
import { feedbackKeysOf } from "./verdict";
import { z } from "zod";
import { recordAudit } from "../audit/record";

async function withRules(db: Sql, evaluators: Evaluator[]): Promise<WireEvaluator[]> {
  const rules = await db.prisma.runRule.findMany({
    where: { evaluatorId: { in: evaluators.map((e) => e.id) } },
    select: { id: true, evaluatorId: true, projectId: true, datasetId: true },
    orderBy: { createdAt: "asc" },
  });
  return evaluators.map((e) =>
    evaluatorToWire(
      e,
      rules.filter((r) => r.evaluatorId === e.id).map((r) => ({ id: r.id, session_id: r.projectId, dataset_id: r.datasetId })),
    ),
  );
}

/** POST /api/v1/platform/evaluators */
export async function createEvaluator(db: Sql, workspaceId: string, input: EvaluatorCreate) {
  const evaluator = input.code_evaluator
    ? await insertCodeEvaluator(db, workspaceId, input.name, input.code_evaluator, input.metadata ?? {})
    : await insertEvaluator(db, workspaceId, input.name, input.llm_evaluator!, input.metadata ?? {});
  const wire = (await withRules(db, [evaluator]))[0];
  await recordAudit(db.prisma, { workspaceId, action: "evaluator.create", target: { type: "evaluator", id: wire.id }, after: wire });
  return { evaluator: wire };
}

export async function readEvaluator(db: Sql, workspaceId: string, id: string): Promise<WireEvaluator> {
  return (await withRules(db, [await loadEvaluator(db, workspaceId, id)]))[0];
}

/** GET /api/v1/platform/evaluators: newest first, `{evaluators, total}` as the client's paginator reads it. */
/** Which evaluators, in the domain's words: of a type, by name, by a feedback key they give; a page of them. */
export interface EvaluatorFilter {
  type?: string;
  nameContains?: string;
  feedbackKey?: string;
  offset: number;
  limit: number;
}

/** GET /platform/evaluators' query parameters as a filter. */
export function evaluatorFilterFromWire(q: z.infer<typeof evaluatorListQuery>): EvaluatorFilter {
  return { type: q.type, nameContains: q.name_contains, feedbackKey: q.feedback_key, offset: q.offset, limit: q.limit };
}

export async function listEvaluators(db: Sql, workspaceId: string, q: EvaluatorFilter) {
  const where: Prisma.EvaluatorWhereInput = {
    workspaceId,
    ...(q.type ? { type: q.type } : {}),
    ...(q.nameContains ? { name: { contains: q.nameContains, mode: "insensitive" } } : {}),
  };
  const rows = (await db.prisma.evaluator.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }] })).map(asEvaluator);
  // The feedback keys live in the output schema (JSON), so that filter is applied here.
  const matching = q.feedbackKey ? rows.filter((e) => e.type === "llm" && feedbackKeysOf(e.outputSchema).includes(q.feedbackKey!)) : rows;
  return { evaluators: await withRules(db, matching.slice(q.offset, q.offset + q.limit)), total: matching.length };
}

/** PATCH: the name, metadata, and any part of the definition sent (the rest kept); a definition of its own type. */
export async function updateEvaluator(db: Sql, workspaceId: string, id: string, change: EvaluatorUpdate) {
  const current = await loadEvaluator(db, workspaceId, id);
  const wrong = current.type === "code" ? change.llm_evaluator : change.code_evaluator;
  if (wrong) throw badRequest(`Evaluator ${id} is a ${current.type} evaluator: send ${current.type}_evaluator to change its definition.`);
  const code = change.code_evaluator ? { code: change.code_evaluator.code, language: change.code_evaluator.language } : {};
  const llm = change.llm_evaluator;
  const definition = llm
    ? await definitionOf(db, workspaceId, {
        prompt: llm.prompt ?? (llm.prompt_repo_handle ? null : (current.prompt as never)),
        schema: llm.schema ?? (llm.prompt_repo_handle ? null : current.outputSchema),
        template_format: llm.template_format ?? (current.templateFormat as "f-string" | "mustache"),
        variable_mapping: llm.variable_mapping ?? current.variableMapping,
        model: llm.model !== undefined ? llm.model : current.model,
        connection_id: llm.connection_id !== undefined ? llm.connection_id : current.connectionId,
        prompt_repo_handle: llm.prompt_repo_handle,
        commit_hash_or_tag: llm.commit_hash_or_tag,
      })
    : {};
  await db.prisma.evaluator.update({
    where: { id: current.id },
    data: {
      name: change.name,
      metadata: change.metadata === undefined ? undefined : ((change.metadata ?? {}) as Prisma.InputJsonValue),
      ...definition,
      ...code,
      updatedAt: new Date(),
    },
  });
  const wire = await readEvaluator(db, workspaceId, id);
  await recordAudit(db.prisma, {
    workspaceId,
    action: "evaluator.update",
    target: { type: "evaluator", id },
    before: (await withRules(db, [current]))[0],
    after: wire,
  });
  return { evaluator: wire };
}

/**
 * DELETE: refused (409) while rules use the evaluator, unless `delete_run_rules` says to delete
 * those rules with it.
 */
export async function deleteEvaluator(db: Sql, workspaceId: string, id: string, deleteRules = false): Promise<void> {
  const evaluator = await loadEvaluator(db, workspaceId, id);
  const rules = await db.prisma.runRule.count({ where: { evaluatorId: evaluator.id } });
  if (rules > 0 && !deleteRules) {
    throw conflict(`Evaluator ${id} is used by ${rules} rule(s): delete them first, or pass delete_run_rules=true.`);
  }
  const before = (await withRules(db, [evaluator]))[0];
  await db.prisma.$transaction(async (tx) => {
    await tx.runRule.deleteMany({ where: { evaluatorId: evaluator.id, workspaceId } });
    await tx.evaluator.delete({ where: { id: evaluator.id } });
    await recordAudit(tx, { workspaceId, action: "evaluator.delete", target: { type: "evaluator", id: evaluator.id }, before });
  });
}

/** DELETE /api/v1/platform/evaluators?evaluator_ids=…: each one on its own, failures reported. */
export async function deleteEvaluators(db: Sql, workspaceId: string, ids: string[], deleteRules = false) {
  const succeeded: string[] = [];
  const failed: { id: string; error: string }[] = [];
  for (const id of ids) {
    try {
      await deleteEvaluator(db, workspaceId, id, deleteRules);
      succeeded.push(id);
    } catch (error) {
      failed.push({ id, error: (error as Error).message });
    }
  }
  return { succeeded, failed };
}

const spendDay = z.object({ date: z.string(), spend_usd: z.number(), trace_count: z.number() });

/** The spend of evaluators per group, per day (the client's `EvaluatorSpendResponse`). */
export const wireEvaluatorSpend = z.object({
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  groups: z.array(
    z.object({
      evaluator_id: z.string().optional(),
      evaluator_name: z.string().optional(),
      run_rule_id: z.string().optional(),
      run_rule_name: z.string().optional(),
      session_id: z.string().optional(),
      dataset_id: z.string().optional(),
      days: z.array(spendDay),
      total_spend_usd: z.number(),
      total_trace_count: z.number(),
      prev_total_spend_usd: z.number(),
      prev_total_trace_count: z.number(),
    }),
  ),
});

/** Each evaluator deleted, or why not. */
export const wireBulkDeleted = z.object({
  succeeded: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), error: z.string() })),
});

/** Evaluators' spend over the 7 days from `periodStart`, grouped by evaluator, rule or resource, or narrowed to one. */
export interface SpendQuery {
  periodStart: Date;
  groupBy?: "evaluator" | "run_rule" | "resource";
  evaluatorId?: string;
  projectId?: string;
  datasetId?: string;
}

/**
 * GET /api/v1/platform/evaluators/spend: per evaluator (or rule, or project/dataset), what its
 * model calls cost and how many runs it judged, per day over the 7 days from `period_start`, with
 * the 7 days before as `prev_*`.
 */
export async function evaluatorSpend(db: Sql, workspaceId: string, q: SpendQuery) {
  if (!q.groupBy && !q.evaluatorId && !q.projectId && !q.datasetId) {
    throw badRequest("Give one of group_by, evaluator_id, session_id or dataset_id.");
  }
  const start = q.periodStart;
  const end = new Date(start.getTime() + 7 * 86_400_000);
  const prev = new Date(start.getTime() - 7 * 86_400_000);
  const rows = await db.query<{
    evaluator_id: string;
    evaluator_name: string;
    rule_id: string;
    rule_name: string;
    session_id: string | null;
    dataset_id: string | null;
    day: string;
    spend: string | null;
    runs: number;
  }>(sql`
    SELECT e.evaluator_id, v.name AS evaluator_name, e.rule_id, r.display_name AS rule_name, r.project_id AS session_id,
      r.dataset_id, to_char(date_trunc('day', e.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
      sum(e.total_cost)::text AS spend, count(*)::int AS runs
    FROM evaluations e JOIN evaluators v ON v.id = e.evaluator_id JOIN run_rules r ON r.id = e.rule_id
    WHERE e.workspace_id = ${workspaceId} AND e.created_at >= ${prev.toISOString()} AND e.created_at < ${end.toISOString()}
      ${q.evaluatorId ? sql`AND e.evaluator_id = ${q.evaluatorId}` : sql``}
      ${q.projectId ? sql`AND r.project_id = ${q.projectId}` : sql``}
      ${q.datasetId ? sql`AND r.dataset_id = ${q.datasetId}` : sql``}
    GROUP BY 1, 2, 3, 4, 5, 6, 7`);
  const by = q.groupBy === "run_rule" ? "rule_id" : q.groupBy === "resource" ? "resource" : "evaluator_id";
  const groups = new Map<string, ReturnType<typeof emptyGroup>>();
  function emptyGroup(row: (typeof rows)[number]) {
    return {
      ...(by === "rule_id" ? { run_rule_id: row.rule_id, run_rule_name: row.rule_name } : {}),
      ...(by === "resource" ? { session_id: row.session_id ?? undefined, dataset_id: row.dataset_id ?? undefined } : {}),
      ...(by === "evaluator_id" ? { evaluator_id: row.evaluator_id, evaluator_name: row.evaluator_name } : {}),
      days: [] as { date: string; spend_usd: number; trace_count: number }[],
      total_spend_usd: 0,
      total_trace_count: 0,
      prev_total_spend_usd: 0,
      prev_total_trace_count: 0,
    };
  }
  for (const row of rows) {
    const key = by === "resource" ? `${row.session_id}:${row.dataset_id}` : by === "rule_id" ? row.rule_id : row.evaluator_id;
    const group = groups.get(key) ?? emptyGroup(row);
    groups.set(key, group);
    const spend = Number(row.spend ?? 0);
    if (new Date(`${row.day}T00:00:00Z`) < start) {
      group.prev_total_spend_usd += spend;
      group.prev_total_trace_count += row.runs;
      continue;
    }
    const day =
      group.days.find((d) => d.date === row.day) ?? group.days[group.days.push({ date: row.day, spend_usd: 0, trace_count: 0 }) - 1];
    day.spend_usd += spend;
    day.trace_count += row.runs;
    group.total_spend_usd += spend;
    group.total_trace_count += row.runs;
  }
  for (const g of groups.values()) g.days.sort((a, b) => a.date.localeCompare(b.date));
  return { period_start: isoFromDb(start.toISOString()), period_end: isoFromDb(end.toISOString()), groups: [...groups.values()] };
}
