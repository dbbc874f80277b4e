import { join, raw, sql, type SqlFragment } from "../../db/sql";
import { formatMicros, parseInstant } from "../../core/time";
import { parseFilter } from "../filter/index";
import { compileNode } from "../filter/compile";
import { fieldSpec, isField } from "../filter/fields";
import type { FilterNode } from "../filter/ast";
import type { RunSelection } from "../selection";

/** The dimensions every rollup table carries, and the ones only run_buckets adds. */
const SHARED_DIMS = new Set(["project_id", "run_type", "is_root", "status"]);
const COUNT_DIMS = new Set([...SHARED_DIMS, "name", "model", "provider"]);

/**
 * Which rollups can answer: "all" (counts, sketches and feedback), "counts" (run_buckets only,
 * the filter names a run's name, model or provider), or null (read the runs).
 */
export type Reach = "all" | "counts";

function nodeReach(node: FilterNode): Reach | null {
  switch (node.kind) {
    case "and":
    case "or":
      return node.args
        .map(nodeReach)
        .reduce<Reach | null>((acc, r) => (acc === null || r === null ? null : acc === "all" ? r : acc), "all");
    case "not":
      return nodeReach(node.arg);
    case "compare":
    case "exists": {
      if (!isField(node.field) || (node.kind === "exists" && node.key !== null)) return null;
      const spec = fieldSpec(node.field);
      if (spec.kind !== "text" && spec.kind !== "uuid" && spec.kind !== "bool") return null;
      return SHARED_DIMS.has(spec.column) ? "all" : COUNT_DIMS.has(spec.column) ? "counts" : null;
    }
    case "search":
      return null;
  }
}

/**
 * A selection as conditions over a rollup table aliased `alias`, or null when the rollups cannot
 * answer it (run ids, a trace, a parent, examples, full-text search, trace and tree filters, or a
 * filter naming anything but the dimensions). Its time range is applied by `hourRange`.
 */
export function rollupConditions(workspaceId: string, s: RunSelection, alias: string): { where: SqlFragment; reach: Reach } | null {
  if (s.ids || s.traceId || s.parentRunId || s.referenceExampleIds?.length || s.search || s.traceFilter || s.treeFilter) return null;
  const a = raw(alias);
  const parts: SqlFragment[] = [sql`${a}.workspace_id = ${workspaceId}`];
  if (s.projectIds) parts.push(sql`${a}.project_id = ANY(${s.projectIds}::uuid[])`);
  if (s.runType) parts.push(sql`${a}.run_type = ${s.runType}`);
  if (typeof s.isRoot === "boolean") parts.push(sql`${a}.is_root = ${s.isRoot}`);
  if (typeof s.error === "boolean") parts.push(s.error ? sql`${a}.status = 'error'` : sql`${a}.status <> 'error'`);
  let reach: Reach = "all";
  if (s.filter) {
    const node = parseFilter(s.filter);
    const filterReach = nodeReach(node);
    if (filterReach === null) return null;
    reach = filterReach;
    parts.push(compileNode(alias, node));
  }
  return { where: join(parts, " AND "), reach };
}

const HOUR_MICROS = 3_600_000_000n;

/**
 * A time range [start, end) split into whole hours, which the hourly buckets answer, and the
 * partial hours at its edges, which are read from the runs. No range at all reads the all-time
 * buckets. Null when the range holds no whole hour (the runs answer it all).
 */
export interface HourRange {
  /** Conditions over the rollup table aliased `alias`, whose rows' union answers the whole hours. */
  buckets(alias: string): SqlFragment[];
  /** Condition over runs aliased `alias` for the edges, or null when there are none. */
  edges(alias: string): SqlFragment | null;
}

export function hourRange(startMicros: bigint | null, endMicros: bigint | null): HourRange | null {
  if (startMicros === null && endMicros === null) {
    // All time: the merged all-time rows, and the hourly delta rows not folded into them yet.
    return { buckets: (alias) => [sql`${raw(alias)}.bucket_start = '-infinity'`, sql`NOT ${raw(alias)}.merged`], edges: () => null };
  }
  const from = startMicros === null ? null : ceilTo(startMicros, HOUR_MICROS);
  const to = endMicros === null ? null : floorTo(endMicros, HOUR_MICROS);
  if (from !== null && to !== null && from >= to) return null;
  const at = (micros: bigint) => sql`${formatMicros(micros)}::timestamptz`;
  return {
    buckets: (alias) => {
      const b = raw(`${alias}.bucket_start`);
      return [
        sql`${b} > '-infinity' AND ${from === null ? sql`TRUE` : sql`${b} >= ${at(from)}`} AND ${to === null ? sql`TRUE` : sql`${b} < ${at(to)}`}`,
      ];
    },
    edges: (alias) => {
      const t = raw(`${alias}.start_time`);
      const below = from !== null && startMicros !== from ? sql`${t} < ${at(from)}` : null;
      const above = to !== null && endMicros !== to ? sql`${t} >= ${at(to)}` : null;
      if (below && above) return sql`(${below} OR ${above})`;
      return below ?? above;
    },
  };
}

/**
 * A selection's start and end times (inclusive) as a half-open range in microseconds; null
 * when one is not a time (the scan answers with its 400).
 */
export function selectionRange(s: RunSelection): { start: bigint | null; end: bigint | null } | null {
  const start = s.startTime === undefined ? null : parseInstant(s.startTime);
  const end = s.endTime === undefined ? null : parseInstant(s.endTime);
  if ((s.startTime !== undefined && start === null) || (s.endTime !== undefined && end === null)) return null;
  return { start, end: end === null ? null : end + 1n };
}

const floorTo = (x: bigint, unit: bigint) => ((x >= 0n ? x : x - unit + 1n) / unit) * unit;
const ceilTo = (x: bigint, unit: bigint) => -floorTo(-x, unit);
