import { z } from "zod";
import { MAX_SEARCH_CHARS } from "./filter/parse";
import { uuid } from "../core/uuid";

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
export type RunSelection = z.infer<typeof runSelection>;

export const runQueryBody = runSelection.extend({
  limit: z.number().int().min(1, "must be at least 1").nullish(),
  select: z.array(z.string()).nullish(),
  order: z.enum(["asc", "desc"]).nullish(),
  cursor: z.string().nullish(),
});
export type RunQueryBody = z.infer<typeof runQueryBody>;

export const runGroupBody = z.looseObject({
  session_id: uuid,
  group_by: z.string().nullish(),
  filter: text,
  start_time: time,
  end_time: time,
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
});
export type RunGroupBody = z.infer<typeof runGroupBody>;
