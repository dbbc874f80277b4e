import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { escapeText, fromStorage } from "../db/storable";
import { sql } from "../db/sql";
import { isoFromDb } from "../core/time";
import type { WireRun } from "./schema";

/** A run refused by an ingest request, as recorded for the workspace to see. */
export interface Refusal {
  id: string;
  detail: string;
  /** The run as sent, when it could be read: its project is taken from it. */
  run?: Pick<WireRun, "session_id" | "session_name"> | null;
}

/** Records the runs a request could not store, under their project when it exists. Never fails the request. */
export async function recordRefusals(db: Sql, workspaceId: string, refusals: Refusal[]): Promise<void> {
  if (refusals.length === 0) return;
  const rows = refusals.slice(0, 1000).map((r) => ({
    id: randomUUID(),
    run_id: escapeText(r.id.slice(0, 200)),
    detail: escapeText(r.detail.slice(0, 4000)),
    session_id: r.run?.session_id ?? null,
    session_name: r.run?.session_name ? escapeText(r.run.session_name) : null,
  }));
  await db
    .query(
      sql`
    INSERT INTO ingest_errors (id, workspace_id, project_id, run_id, detail)
    SELECT v.id, ${workspaceId}, p.id, v.run_id, v.detail
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id uuid, run_id text, detail text, session_id uuid, session_name text)
    LEFT JOIN projects p ON p.workspace_id = ${workspaceId}
      AND (p.id = v.session_id OR (v.session_id IS NULL AND p.name = coalesce(v.session_name, 'default')))`,
    )
    .catch((error) => console.warn(`Could not record ${rows.length} refused runs: ${(error as Error).message}`));
}

/** GET /runs/ingest-errors' query parameters (`session` is a project id). */
export const ingestErrorsQuery = z.object({
  session: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** A run ingest refused, and why. */
export const wireRefusal = z.object({
  id: z.string(),
  session_id: z.string().nullable(),
  run_id: z.string(),
  detail: z.string(),
  created_at: z.string(),
});

/** Which refusals: of one project or the whole workspace, the newest `limit` (100 when absent). */
export interface RefusalQuery {
  projectId?: string;
  limit?: number;
}

/** GET /runs/ingest-errors: the runs refused lately, newest first, for the workspace or one project. */
export async function listRefusals(db: Sql, workspaceId: string, q: RefusalQuery): Promise<z.infer<typeof wireRefusal>[]> {
  const rows = await db.query<{ id: string; project_id: string | null; run_id: string; detail: string; created_at: string }>(sql`
    SELECT id, project_id, run_id, detail, created_at FROM ingest_errors
    WHERE workspace_id = ${workspaceId} ${q.projectId ? sql`AND project_id = ${q.projectId}` : sql``}
    ORDER BY created_at DESC LIMIT ${q.limit ?? 100}`);
  return fromStorage(rows).map((r) => ({
    id: r.id,
    session_id: r.project_id,
    run_id: r.run_id,
    detail: r.detail,
    created_at: isoFromDb(r.created_at)!,
  }));
}
