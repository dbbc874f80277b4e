import { z } from "zod";
import { MAX_SEARCH_CHARS } from "./filter/parse";
import { uuid } from "../core/uuid";
import { badRequest } from "../core/errors";
import type { RunQuery, RunSelection, ThreadQuery } from "./selection";

/** One id or a list of ids (JS sends `reference_example` as a string, Python as a list). */
const uuids = z
  .union([uuid, z.array(uuid)])
  .nullish()
  .transform((v) => (v === null || v === undefined ? undefined : Array.isArray(v) ? v : [v]));
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
const time = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => v ?? undefined);

/** The run selection shared by /runs/query, /runs/stats and charts: what the SDKs send. */
export const runSelection = z.looseObject({
  id: uuids,
  session: uuids,
  run_type: text,
  reference_example: uuids,
  parent_run: uuid.nullish(),
  trace: uuid.nullish(),
  is_root: z.boolean().nullish(),
  error: z.boolean().nullish(),
  start_time: time,
  end_time: time,
  query: z
    .string()
    .max(MAX_SEARCH_CHARS, `a search of at most ${MAX_SEARCH_CHARS.toLocaleString("en")} characters`)
    .nullish()
    .transform((v) => v ?? undefined),
  filter: text,
  trace_filter: text,
  tree_filter: text,
  execution_order: z.number().nullish(),
  data_source_type: z.string().nullish(),
});
export type WireRunSelection = z.infer<typeof runSelection>;

export const runQueryBody = runSelection.extend({
  limit: z.number().int().min(1, "must be at least 1").nullish(),
  select: z.array(z.string()).nullish(),
  order: z.enum(["asc", "desc"]).nullish(),
  cursor: z.string().nullish(),
});
export type WireRunQuery = z.infer<typeof runQueryBody>;

export const runGroupBody = z.looseObject({
  session_id: uuid,
  group_by: z.string().nullish(),
  filter: text,
  start_time: time,
  end_time: time,
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
});
export type WireRunGroup = z.infer<typeof runGroupBody>;

const orUndefined = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

/**
 * The SDKs' selection in the domain's words. A list of ids ignores everything else, an empty list
 * nothing; `execution_order: 1` means each trace's first run, its root.
 */
export function selectionFromWire(w: Partial<WireRunSelection>): RunSelection {
  const firstOnly = w.execution_order === 1;
  return {
    ids: w.id?.length ? w.id : firstOnly && w.is_root === false ? [] : undefined,
    projectIds: w.session,
    runType: orUndefined(w.run_type),
    referenceExampleIds: w.reference_example,
    parentRunId: orUndefined(w.parent_run),
    traceId: orUndefined(w.trace),
    isRoot: firstOnly ? true : orUndefined(w.is_root),
    error: orUndefined(w.error),
    startTime: w.start_time,
    endTime: w.end_time,
    search: w.query,
    filter: w.filter,
    traceFilter: w.trace_filter,
    treeFilter: w.tree_filter,
  };
}

/** POST /runs/query's body as a page query. */
export function runQueryFromWire(w: WireRunQuery): RunQuery {
  return {
    ...selectionFromWire(w),
    limit: orUndefined(w.limit),
    fields: orUndefined(w.select),
    order: orUndefined(w.order),
    cursor: orUndefined(w.cursor),
  };
}

const GROUPS = new Set(["conversation", "thread", "thread_id"]);

/** POST /runs/group's body: conversations are the only grouping. */
export function threadQueryFromWire(w: WireRunGroup): ThreadQuery {
  if (w.group_by && !GROUPS.has(w.group_by)) throw badRequest(`Invalid group_by ${JSON.stringify(w.group_by)}: expected "conversation".`);
  return {
    projectId: w.session_id,
    filter: w.filter,
    startTime: w.start_time,
    endTime: w.end_time,
    limit: orUndefined(w.limit),
    offset: orUndefined(w.offset),
  };
}
