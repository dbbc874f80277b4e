import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { badRequest, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { checkEgressUrl } from "../egress/http";
import { isUuid } from "../core/uuid";
import { findDataset } from "../datasets/service";
import { readSession } from "../sessions/service";
import { checkRuleFilter } from "./match";
import type { AddFeedback, RuleCreate, RuleUpdate, Webhook } from "./schema";

export interface RuleRow {
  id: string;
  workspace_id: string;
  project_id: string;
  display_name: string;
  filter: string | null;
  sampling_rate: number;
  is_enabled: boolean;
  add_to_dataset_id: string | null;
  add_feedback: AddFeedback | null;
  webhooks: Webhook[];
  created_at: string;
  updated_at: string;
}

/** Header values often carry secrets: they are stored and sent, but never shown again. */
function ruleToWire(row: RuleRow) {
  return {
    id: row.id,
    tenant_id: row.workspace_id,
    session_id: row.project_id,
    display_name: row.display_name,
    filter: row.filter,
    sampling_rate: Number(row.sampling_rate),
    is_enabled: row.is_enabled,
    add_to_dataset_id: row.add_to_dataset_id,
    add_feedback: row.add_feedback,
    webhooks: row.webhooks.map((w) => ({
      url: w.url,
      headers: w.headers ? Object.fromEntries(Object.keys(w.headers).map((k) => [k, "<redacted>"])) : null,
    })),
    created_at: isoFromDb(row.created_at),
    updated_at: isoFromDb(row.updated_at),
  };
}
export type WireRule = ReturnType<typeof ruleToWire>;

const missing = (id: string) => notFound(`Rule ${id} not found.`);

async function checkReferences(
  db: Sql,
  workspaceId: string,
  rule: { session_id?: string; add_to_dataset_id?: string | null; filter?: string | null; webhooks?: Webhook[] | null },
) {
  if (rule.session_id) await readSession(db, workspaceId, rule.session_id);
  if (rule.add_to_dataset_id) await findDataset(db, workspaceId, rule.add_to_dataset_id);
  if (rule.filter) checkRuleFilter(rule.filter);
  for (const hook of rule.webhooks ?? []) checkEgressUrl(hook.url);
}

function checkHasAction(rule: { add_to_dataset_id: string | null; add_feedback: AddFeedback | null; webhooks: Webhook[] }) {
  if (!rule.add_to_dataset_id && !rule.add_feedback && rule.webhooks.length === 0) {
    throw badRequest("A rule needs at least one action: add_to_dataset_id, add_feedback or webhooks.");
  }
}

export async function createRule(db: Sql, workspaceId: string, input: RuleCreate): Promise<WireRule> {
  checkHasAction({
    add_to_dataset_id: input.add_to_dataset_id ?? null,
    add_feedback: input.add_feedback ?? null,
    webhooks: input.webhooks,
  });
  await checkReferences(db, workspaceId, input);
  const [row] = await db.query<RuleRow>(sql`
    INSERT INTO run_rules (id, workspace_id, project_id, display_name, filter, sampling_rate, is_enabled, add_to_dataset_id, add_feedback, webhooks)
    VALUES (${randomUUID()}, ${workspaceId}, ${input.session_id}, ${input.display_name}, ${input.filter || null}, ${input.sampling_rate},
      ${input.is_enabled}, ${input.add_to_dataset_id ?? null}, ${input.add_feedback ? JSON.stringify(input.add_feedback) : null}::jsonb,
      ${JSON.stringify(input.webhooks)}::jsonb)
    RETURNING *`);
  return ruleToWire(row);
}

export async function loadRule(db: Sql, workspaceId: string, id: string): Promise<RuleRow> {
  if (!isUuid(id)) throw missing(id);
  const [row] = await db.query<RuleRow>(sql`SELECT * FROM run_rules WHERE id = ${id} AND workspace_id = ${workspaceId}`);
  if (!row) throw missing(id);
  return row;
}

export async function readRule(db: Sql, workspaceId: string, id: string): Promise<WireRule> {
  return ruleToWire(await loadRule(db, workspaceId, id));
}

export async function listRules(
  db: Sql,
  workspaceId: string,
  q: { session_id?: string; offset: number; limit: number },
): Promise<WireRule[]> {
  const rows = await db.query<RuleRow>(sql`
    SELECT * FROM run_rules WHERE workspace_id = ${workspaceId} ${q.session_id ? sql`AND project_id = ${q.session_id}` : sql``}
    ORDER BY created_at, id LIMIT ${q.limit} OFFSET ${q.offset}`);
  return rows.map(ruleToWire);
}

export async function updateRule(db: Sql, workspaceId: string, id: string, change: RuleUpdate): Promise<WireRule> {
  const current = await loadRule(db, workspaceId, id);
  checkHasAction({
    add_to_dataset_id: change.add_to_dataset_id !== undefined ? change.add_to_dataset_id : current.add_to_dataset_id,
    add_feedback: change.add_feedback !== undefined ? change.add_feedback : current.add_feedback,
    webhooks: change.webhooks !== undefined ? (change.webhooks ?? []) : current.webhooks,
  });
  await checkReferences(db, workspaceId, change);
  const sets: SqlFragment[] = [sql`updated_at = now()`];
  if (change.display_name !== undefined) sets.push(sql`display_name = ${change.display_name}`);
  if (change.session_id !== undefined) sets.push(sql`project_id = ${change.session_id}`);
  if (change.filter !== undefined) sets.push(sql`filter = ${change.filter || null}`);
  if (change.sampling_rate !== undefined) sets.push(sql`sampling_rate = ${change.sampling_rate}`);
  if (change.is_enabled !== undefined) sets.push(sql`is_enabled = ${change.is_enabled}`);
  if (change.add_to_dataset_id !== undefined) sets.push(sql`add_to_dataset_id = ${change.add_to_dataset_id}`);
  if (change.add_feedback !== undefined)
    sets.push(sql`add_feedback = ${change.add_feedback ? JSON.stringify(change.add_feedback) : null}::jsonb`);
  if (change.webhooks !== undefined) sets.push(sql`webhooks = ${JSON.stringify(change.webhooks ?? [])}::jsonb`);
  const [row] = await db.query<RuleRow>(sql`
    UPDATE run_rules SET ${join(sets)} WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING *`);
  return ruleToWire(row);
}

/** DELETE /runs/rules/{id}: the rule, with its run marks and logs (the database's cascades). */
export async function deleteRule(db: Sql, workspaceId: string, id: string): Promise<void> {
  await loadRule(db, workspaceId, id);
  await db.prisma.runRule.deleteMany({ where: { id, workspaceId } });
}

/** GET /runs/rules/{id}/logs: what each action did, newest first. */
export async function ruleLogs(db: Sql, workspaceId: string, id: string, page: { offset: number; limit: number }) {
  await loadRule(db, workspaceId, id);
  const rows = await db.query<{
    id: string;
    run_id: string;
    action: string;
    outcome: string;
    attempts: number;
    status_code: number | null;
    detail: string | null;
    created_at: string;
  }>(sql`
    SELECT id, run_id, action, outcome, attempts, status_code, detail, created_at FROM run_rule_logs
    WHERE rule_id = ${id} AND workspace_id = ${workspaceId}
    ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`);
  return rows.map((r) => ({ ...r, created_at: isoFromDb(r.created_at) }));
}
