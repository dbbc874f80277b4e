import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { feedbackStats } from "../feedback/stats";
import { attachmentLinks } from "../blobs/attachments";
import { traceTotals, type TraceTotals } from "./trace-totals";
import { conversationDiagnostics } from "../llm/conversation";
import { RUN_COLUMNS, type RunRow } from "./columns";
import { serializeRun, type SelectedRun, type WireRun } from "./serialize";
import type { Diagnostic } from "../llm/conversation-types";
import { fromStorage } from "../db/storable";
import { UUID } from "../core/uuid";

/** A root run answers its whole trace's tokens and costs (sums over the trace's LLM runs). */
function withTraceTotals(row: RunRow, totals: Map<string, TraceTotals>): RunRow {
  const trace = row.is_root ? totals.get(row.trace_id) : undefined;
  if (!trace || trace.total_tokens === null) return row;
  return { ...row, ...trace };
}

/** Rows to wire runs, with their feedback statistics, attachment links and trace roll-ups looked up in three queries. */
export async function serializeRuns(
  db: Sql,
  workspaceId: string,
  rows: RunRow[],
  select: ReadonlySet<string> | null,
): Promise<SelectedRun[]>;
export async function serializeRuns(db: Sql, workspaceId: string, rows: RunRow[]): Promise<WireRun[]>;
export async function serializeRuns(
  db: Sql,
  workspaceId: string,
  rows: RunRow[],
  select?: ReadonlySet<string> | null,
): Promise<SelectedRun[]> {
  const ids = rows.map((r) => r.id);
  const wantsFeedback = !select || select.has("feedback_stats");
  const [stats, links, totals] = await Promise.all([
    wantsFeedback ? feedbackStats(db, workspaceId, ids) : Promise.resolve(new Map()),
    attachmentLinks(db, workspaceId, ids),
    traceTotals(
      db,
      workspaceId,
      rows.filter((r) => r.is_root).map((r) => r.trace_id),
    ),
  ]);
  return rows.map((row) =>
    serializeRun(withTraceTotals(row, totals), {
      feedbackStats: stats.get(row.id) ?? null,
      attachments: links.get(row.id) ?? null,
      select,
    }),
  );
}

/** A whole run, with structural problems of an LLM run's messages. */
export type RunDetail = WireRun & { diagnostics?: Diagnostic[] };

/** Runs of the workspace by id, serialized whole, in the order asked; ids it does not have are left out. */
export async function readRuns(db: Sql, workspaceId: string, ids: string[]): Promise<WireRun[]> {
  const wanted = ids.filter((id) => UUID.test(id));
  if (wanted.length === 0) return [];
  const rows = (
    await db.query<RunRow>(sql`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.workspace_id = ${workspaceId} AND r.id = ANY(${wanted}::uuid[])`)
  ).map(fromStorage);
  const order = new Map(wanted.map((id, i) => [id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return serializeRuns(db, workspaceId, rows);
}

/** One run of the workspace, serialized whole; null when it does not exist there. */
export async function readRun(db: Sql, workspaceId: string, id: string): Promise<RunDetail | null> {
  if (!UUID.test(id)) return null;
  const rows = (await db.query<RunRow>(sql`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.workspace_id = ${workspaceId} AND r.id = ${id}`)).map(
    fromStorage,
  );
  if (rows.length === 0) return null;
  const [run]: RunDetail[] = await serializeRuns(db, workspaceId, rows);
  // Structural problems in an LLM run's messages: in the single-run answer only (too heavy for pages).
  if (rows[0].run_type === "llm") run.diagnostics = conversationDiagnostics(rows[0]);
  return run;
}
