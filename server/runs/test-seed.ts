import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";

/** Storage tests of the query services insert runs directly, with every derived column settable. */
export interface SeedRun {
  id?: string;
  traceId?: string;
  parent?: { id: string; dottedOrder: string; traceId: string };
  name?: string;
  runType?: string;
  start?: Date;
  latencyMs?: number | null;
  inputs?: unknown;
  outputs?: unknown;
  error?: string | null;
  metadata?: Record<string, unknown>;
  tags?: string[];
  model?: string | null;
  promptTokens?: number | null;
  completionTokens?: number | null;
  promptCost?: number | null;
  completionCost?: number | null;
  firstTokenMs?: number | null;
  threadId?: string | null;
}

export interface SeededRun {
  id: string;
  traceId: string;
  dottedOrder: string;
}

function stamp(date: Date, micros: number): string {
  return `${date.toISOString().slice(0, 23).replace(/[-:.]/g, "")}${String(micros).padStart(3, "0")}Z`;
}

export async function seedProject(db: Sql, workspaceId: string, name = `p-${randomUUID().slice(0, 8)}`): Promise<string> {
  const id = randomUUID();
  await db.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${id}, ${workspaceId}, ${name})`);
  return id;
}

export async function seedRun(db: Sql, workspaceId: string, projectId: string, run: SeedRun = {}): Promise<SeededRun> {
  const id = run.id ?? randomUUID();
  const start = run.start ?? new Date();
  const traceId = run.parent?.traceId ?? run.traceId ?? id;
  const segment = `${stamp(start, 1)}${id}`;
  const dottedOrder = run.parent ? `${run.parent.dottedOrder}.${segment}` : segment;
  const latency = run.latencyMs === undefined ? 1000 : run.latencyMs;
  const end = latency === null ? null : new Date(start.getTime() + latency).toISOString();
  const prompt = run.promptTokens ?? null;
  const completion = run.completionTokens ?? null;
  const total = prompt === null && completion === null ? null : (prompt ?? 0) + (completion ?? 0);
  const promptCost = run.promptCost ?? null;
  const completionCost = run.completionCost ?? null;
  const totalCost = promptCost === null && completionCost === null ? null : (promptCost ?? 0) + (completionCost ?? 0);
  const firstToken = run.firstTokenMs == null ? null : new Date(start.getTime() + run.firstTokenMs).toISOString();
  const status = run.error ? "error" : end ? "success" : "pending";
  await db.query(sql`
    INSERT INTO runs (id, workspace_id, project_id, trace_id, parent_run_id, dotted_order, is_root, name, run_type, status,
      start_time, end_time, latency_ms, inputs, outputs, error, extra, tags, thread_id, model, prompt_tokens, completion_tokens,
      total_tokens, prompt_cost, completion_cost, total_cost, first_token_time)
    VALUES (${id}, ${workspaceId}, ${projectId}, ${traceId}, ${run.parent?.id ?? null}, ${dottedOrder}, ${!run.parent},
      ${run.name ?? "run"}, ${run.runType ?? "chain"}, ${status}, ${start.toISOString()}, ${end}, ${latency},
      ${JSON.stringify(run.inputs ?? { question: "hi" })}::jsonb, ${run.outputs === undefined ? null : JSON.stringify(run.outputs)}::jsonb,
      ${run.error ?? null}, ${JSON.stringify({ metadata: run.metadata ?? {} })}::jsonb, ${run.tags ?? []}::text[],
      ${run.threadId ?? null}, ${run.model ?? null}, ${prompt}, ${completion}, ${total}, ${promptCost}, ${completionCost}, ${totalCost},
      ${firstToken})`);
  return { id, traceId, dottedOrder };
}

export async function seedFeedback(
  db: Sql,
  workspaceId: string,
  run: SeededRun & { projectId: string },
  key: string,
  score: number | null,
  value: unknown = null,
): Promise<void> {
  await db.query(sql`
    INSERT INTO feedback (id, workspace_id, run_id, trace_id, project_id, key, score, value)
    VALUES (${randomUUID()}, ${workspaceId}, ${run.id}, ${run.traceId}, ${run.projectId}, ${key}, ${score}, ${value === null ? null : JSON.stringify(value)}::jsonb)`);
}
