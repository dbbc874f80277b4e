import { raw, sql, type SqlFragment } from "../db/sql";
import { escapeText } from "../db/storable";
import { compileFilter, searchText } from "./filter/index";
import { likeContains } from "./filter/values";
import { instantOf as instant } from "./range";
import type { RunSelection } from "./schema";

function andAll(parts: SqlFragment[]): SqlFragment {
  return parts.reduce((acc, p) => sql`${acc} AND ${p}`);
}

/**
 * The WHERE condition for runs aliased `alias` in the workspace, from the SDK's selection. A
 * list of ids ignores every other argument, as LangSmith documents. `trace_filter` applies to the
 * trace's root run, `tree_filter` to any other run of the same trace.
 */
export function runConditions(workspaceId: string, s: Partial<RunSelection>, alias = "r"): SqlFragment {
  const a = raw(alias);
  const parts: SqlFragment[] = [sql`${a}.workspace_id = ${workspaceId}`];
  if (s.id && s.id.length > 0) {
    parts.push(sql`${a}.id = ANY(${s.id}::uuid[])`);
    return andAll(parts);
  }
  if (s.session)
    parts.push(s.session.length === 1 ? sql`${a}.project_id = ${s.session[0]}` : sql`${a}.project_id = ANY(${s.session}::uuid[])`);
  if (s.trace) parts.push(sql`${a}.trace_id = ${s.trace}`);
  if (s.parent_run) parts.push(sql`${a}.parent_run_id = ${s.parent_run}`);
  if (s.run_type) parts.push(sql`${a}.run_type = ${s.run_type}`);
  if (s.reference_example) parts.push(sql`${a}.reference_example_id = ANY(${s.reference_example}::uuid[])`);
  if (typeof s.is_root === "boolean") parts.push(sql`${a}.is_root = ${s.is_root}`);
  // The SDKs' execution_order: 1 means the first run of each trace, its root.
  if (s.execution_order === 1) parts.push(sql`${a}.is_root`);
  if (typeof s.error === "boolean") parts.push(s.error ? sql`${a}.error IS NOT NULL` : sql`${a}.error IS NULL`);
  if (s.start_time !== undefined) parts.push(sql`${a}.start_time >= ${instant(s.start_time, "start_time")}::timestamptz`);
  if (s.end_time !== undefined) parts.push(sql`${a}.start_time <= ${instant(s.end_time, "end_time")}::timestamptz`);
  if (s.query) parts.push(sql`${searchText(alias)} ILIKE ${likeContains(escapeText(s.query))}`);
  if (s.filter) parts.push(compileFilter(s.filter, alias));
  if (s.trace_filter) {
    const t = raw(`${alias}_root`);
    parts.push(
      sql`EXISTS (SELECT 1 FROM runs ${t} WHERE ${t}.workspace_id = ${a}.workspace_id AND ${t}.trace_id = ${a}.trace_id AND ${t}.is_root AND ${compileFilter(s.trace_filter, `${alias}_root`)})`,
    );
  }
  if (s.tree_filter) {
    const t = raw(`${alias}_tree`);
    parts.push(
      sql`EXISTS (SELECT 1 FROM runs ${t} WHERE ${t}.workspace_id = ${a}.workspace_id AND ${t}.trace_id = ${a}.trace_id AND ${t}.id <> ${a}.id AND ${compileFilter(s.tree_filter, `${alias}_tree`)})`,
    );
  }
  return andAll(parts);
}
