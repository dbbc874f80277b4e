import { badRequest } from "../core/errors";
import type { WireRun } from "./schema";

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Merges `extra` so that a later `extra.metadata` adds keys instead of replacing the map. */
export function mergeExtra(prior: unknown, next: unknown): unknown {
  if (!isObject(next)) return prior ?? next;
  if (!isObject(prior)) return next;
  const metadata =
    isObject(prior.metadata) || isObject(next.metadata)
      ? { ...(isObject(prior.metadata) ? prior.metadata : {}), ...(isObject(next.metadata) ? next.metadata : {}) }
      : undefined;
  return metadata ? { ...prior, ...next, metadata } : { ...prior, ...next };
}

/** The one merge rule: a later non-null value wins; `null` means "not provided". */
export function mergeRun(prior: Fields, next: Fields): Fields {
  const out: Fields = { ...prior };
  for (const [key, value] of Object.entries(next)) {
    if (value === null || value === undefined) continue;
    out[key] = key === "extra" ? mergeExtra(prior.extra, value) : value;
  }
  return out;
}

export interface PendingRun {
  id: string;
  fields: WireRun;
  /** True when any operation in the request created the run (a post). */
  posted: boolean;
}

/** Folds the posts and patches of one request into one record per run id, in request order. */
export function foldOperations(posts: WireRun[], patches: WireRun[], newId: () => string): PendingRun[] {
  const byId = new Map<string, PendingRun>();
  const add = (run: WireRun, posted: boolean, index: number, kind: string) => {
    const id = run.id ?? (posted ? newId() : null);
    if (!id) throw badRequest(`${kind}[${index}] has no id; a patch must name the run it updates.`);
    const prior = byId.get(id);
    const fields = prior ? (mergeRun(prior.fields, run) as WireRun) : { ...run, id };
    byId.set(id, { id, fields, posted: posted || (prior?.posted ?? false) });
  };
  posts.forEach((run, i) => add(run, true, i, "post"));
  patches.forEach((run, i) => add(run, false, i, "patch"));
  return [...byId.values()];
}
