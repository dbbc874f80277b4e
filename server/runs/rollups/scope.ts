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

/** The run's dimensions that run_dim_sketches and feedback_dim_buckets hold one at a time. */
export type Dim = "name" | "model" | "provider";

/** The columns a filter names (null: something the rollups do not carry). */
function columnsOf(node: FilterNode, into: Set<string>): Set<string> | null {
  switch (node.kind) {
    case "and":
    case "or":
      for (const arg of node.args) if (!columnsOf(arg, into)) return null;
      return into;
    case "not":
      return columnsOf(node.arg, into);
    case "compare":
    case "exists":
      if (!isField(node.field)) return null;
      {
        const spec = fieldSpec(node.field);
        if (spec.kind !== "text" && spec.kind !== "uuid" && spec.kind !== "bool") return null;
        into.add(spec.column);
      }
      return into;
    case "search":
      return null;
  }
}

/**
 * The one dimension among name, model and provider a selection's filter names, "none" when it names
 * none of them, or null when it names two or more (no single-dimension rollup holds them together).
 */
export function filterDim(s: RunSelection): Dim | "none" | null {
  if (!s.filter) return "none";
  const columns = columnsOf(parseFilter(s.filter), new Set());
  if (!columns) return null;
  const named = [...columns].filter((c) => c === "name" || c === "model" || c === "provider") as Dim[];
  return named.length === 0 ? "none" : named.length === 1 ? named[0] : null;
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

const DAY_MICROS = 24n * HOUR_MICROS;

/**
 * The rows of the single-dimension rollups (run_dim_sketches, feedback_dim_buckets) answering the
 * whole hours of [start, end): all time from the all-time rows; else whole UTC days from the day
 * rows (when `days`: a chart's buckets are whole days) and the other hours from the hour rows. Beside
 * them, the delta rows of run_sketches / feedback_buckets in those hours, which carry every dimension.
 * Null when the range holds no whole hour.
 */
export interface DimRange {
  /**
   * Disjoint conditions over run_dim_sketches / feedback_dim_buckets aliased `alias`, each a range of
   * their index, read as a union (one OR of them is no index range).
   */
  merged(alias: string): SqlFragment[];
  /** Conditions over the delta rows of run_sketches / feedback_buckets aliased `alias`. */
  deltas(alias: string): SqlFragment;
}

export function dimRange(startMicros: bigint | null, endMicros: bigint | null, days: boolean): DimRange | null {
  if (startMicros === null && endMicros === null) {
    return {
      merged: (alias) => [sql`${raw(alias)}.span = 0 AND ${raw(alias)}.bucket_start = '-infinity'`],
      deltas: (alias) => sql`NOT ${raw(alias)}.merged`,
    };
  }
  const from = startMicros === null ? null : ceilTo(startMicros, HOUR_MICROS);
  const to = endMicros === null ? null : floorTo(endMicros, HOUR_MICROS);
  if (from !== null && to !== null && from >= to) return null;
  const at = (micros: bigint) => sql`${formatMicros(micros)}::timestamptz`;
  const within = (b: SqlFragment, lo: bigint | null, hi: bigint | null) =>
    sql`${lo === null ? sql`TRUE` : sql`${b} >= ${at(lo)}`} AND ${hi === null ? sql`TRUE` : sql`${b} < ${at(hi)}`}`;
  return {
    merged: (alias) => {
      const a = raw(alias);
      const b = raw(`${alias}.bucket_start`);
      const hours = (lo: bigint | null, hi: bigint | null) => sql`${a}.span = 1 AND ${within(b, lo, hi)}`;
      if (!days) return [hours(from, to)];
      const dayFrom = from === null ? null : ceilTo(from, DAY_MICROS);
      const dayTo = to === null ? null : floorTo(to, DAY_MICROS);
      if (dayFrom !== null && dayTo !== null && dayFrom >= dayTo) return [hours(from, to)];
      const parts = [sql`${a}.span = 24 AND ${within(b, dayFrom, dayTo)}`];
      if (from !== null && from !== dayFrom) parts.push(hours(from, dayFrom));
      if (to !== null && to !== dayTo) parts.push(hours(dayTo, to));
      return parts;
    },
    deltas: (alias) => sql`NOT ${raw(alias)}.merged AND ${within(raw(`${alias}.bucket_start`), from, to)}`,
  };
}

const floorTo = (x: bigint, unit: bigint) => ((x >= 0n ? x : x - unit + 1n) / unit) * unit;
const ceilTo = (x: bigint, unit: bigint) => -floorTo(-x, unit);
