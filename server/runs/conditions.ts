import { raw, sql, type SqlFragment } from "../db/sql";
import { escapeText } from "../db/storable";
import { compileFilter, searchText } from "./filter/index";
import { likeContains } from "./filter/values";
import { instantOf as instant } from "./range";
import type { RunSelection } from "./selection";

function andAll(parts: SqlFragment[]): SqlFragment {
  return parts.reduce((acc, p) => sql`${acc} AND ${p}`);
}

/**
 * The WHERE condition for runs aliased `alias` in the workspace, from a selection. A list of ids
 * ignores every other field, as LangSmith documents. `traceFilter` applies to the trace's root
 * run, `treeFilter` to any other run of the same trace.
 */
export function runConditions(workspaceId: string, s: RunSelection, alias = "r"): SqlFragment {
  const a = raw(alias);
  const parts: SqlFragment[] = [sql`${a}.workspace_id = ${workspaceId}`];
  if (s.ids) {
    parts.push(sql`${a}.id = ANY(${s.ids}::uuid[])`);
    return andAll(parts);
  }
  if (s.projectIds)
    parts.push(s.projectIds.length === 1 ? sql`${a}.project_id = ${s.projectIds[0]}` : sql`${a}.project_id = ANY(${s.projectIds}::uuid[])`);
  if (s.traceId) parts.push(sql`${a}.trace_id = ${s.traceId}`);
  if (s.parentRunId) parts.push(sql`${a}.parent_run_id = ${s.parentRunId}`);
  if (s.runType) parts.push(sql`${a}.run_type = ${s.runType}`);
  if (s.referenceExampleIds) parts.push(sql`${a}.reference_example_id = ANY(${s.referenceExampleIds}::uuid[])`);
  if (typeof s.isRoot === "boolean") parts.push(sql`${a}.is_root = ${s.isRoot}`);
  if (typeof s.error === "boolean") parts.push(s.error ? sql`${a}.error IS NOT NULL` : sql`${a}.error IS NULL`);
  if (s.startTime !== undefined) parts.push(sql`${a}.start_time >= ${instant(s.startTime, "start_time")}::timestamptz`);
  if (s.endTime !== undefined) parts.push(sql`${a}.start_time <= ${instant(s.endTime, "end_time")}::timestamptz`);
  if (s.search) parts.push(sql`${searchText(alias)} ILIKE ${likeContains(escapeText(s.search))}`);
  if (s.filter) parts.push(compileFilter(s.filter, alias));
  if (s.traceFilter) {
    const t = raw(`${alias}_root`);
    parts.push(
      sql`EXISTS (SELECT 1 FROM runs ${t} WHERE ${t}.workspace_id = ${a}.workspace_id AND ${t}.trace_id = ${a}.trace_id AND ${t}.is_root AND ${compileFilter(s.traceFilter, `${alias}_root`)})`,
    );
  }
  if (s.treeFilter) {
    const t = raw(`${alias}_tree`);
    parts.push(
      sql`EXISTS (SELECT 1 FROM runs ${t} WHERE ${t}.workspace_id = ${a}.workspace_id AND ${t}.trace_id = ${a}.trace_id AND ${t}.id <> ${a}.id AND ${compileFilter(s.treeFilter, `${alias}_tree`)})`,
    );
  }
  return andAll(parts);
}
