import { z } from "zod";
import { uuid } from "../core/uuid";
import { SORT_KEYS } from "../runs/sorted";

/** The time ranges the lists offer, newest `last` of them; a custom range is `from`/`to`. */
export const RELATIVE_RANGES = ["1h", "24h", "7d", "30d"] as const;

const instant = z.iso.datetime({ offset: true, message: "must be an ISO-8601 time" });

/**
 * What a view restores: the list's address state. Every field is optional (a view may only fix a
 * filter); the lists read the same names from the URL (`filter`, `q`, `type`, `root`, `sort`,
 * `cols`, `range`, `from`, `to`, `view`).
 */
export const viewState = z.strictObject({
  filter: z.string().max(10_000).optional(),
  search: z.string().max(1_000).optional(),
  runType: z.string().max(64).optional(),
  rootOnly: z.boolean().optional(),
  sort: z.object({ by: z.enum(["start_time", ...SORT_KEYS]), dir: z.enum(["asc", "desc"]) }).optional(),
  columns: z.array(z.string().min(1).max(64)).max(50).optional(),
  range: z.enum(RELATIVE_RANGES).optional(),
  from: instant.optional(),
  to: instant.optional(),
  tab: z.enum(["runs", "threads"]).optional(),
});
export type ViewState = z.infer<typeof viewState>;

const name = z.string().trim().min(1, "must not be empty").max(120);

export const viewCreate = z.object({
  project_id: uuid,
  name,
  state: viewState,
  /** Shared with the workspace (the default), or kept to the person who makes it. */
  shared: z.boolean().default(true),
  /** Opened when the project is opened without state in its address (shared views only). */
  is_default: z.boolean().default(false),
});
export type ViewCreate = z.infer<typeof viewCreate>;

export const viewUpdate = z.object({ name: name.optional(), state: viewState.optional(), is_default: z.boolean().optional() });
export type ViewUpdate = z.infer<typeof viewUpdate>;

export const viewListQuery = z.object({ project_id: uuid.optional() });

/** A saved view as answered (REST and tRPC). */
export const wireView = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  state: viewState,
  shared: z.boolean(),
  is_default: z.boolean(),
  /** Whether the caller may rename, change or delete it. */
  editable: z.boolean(),
  created_at: z.string().nullable(),
  modified_at: z.string().nullable(),
});
export type WireView = z.infer<typeof wireView>;
