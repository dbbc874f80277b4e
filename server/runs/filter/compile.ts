import { raw, sql, type SqlFragment } from "../../db/sql";
import { escapeText, storableJson } from "../../db/storable";
import type { FilterNode, Literal } from "./ast";
import { FilterSyntaxError } from "./errors";
import { fieldSpec, type FieldSpec, type PairFamily } from "./fields";
import { compilePair, groupPairs } from "./pairs";
import { durationMs, finite, instant, jsonObjectOf, likeContains, list, text, uuid } from "./values";

type Compare = Extract<FilterNode, { kind: "compare" }>;
const OPS: Record<string, string> = { eq: "=", neq: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };
const ORDERED = new Set(["gt", "gte", "lt", "lte"]);

/**
 * The text `search("...")` looks in. The same expression backs the trigram index in the
 * runs_query migration, so it must stay byte-for-byte identical to it.
 */
export function searchText(alias: string): SqlFragment {
  const a = raw(alias);
  return sql`(${a}.name || ' ' || coalesce(${a}.error, '') || ' ' || coalesce(${a}.inputs::text, '') || ' ' || coalesce(${a}.outputs::text, ''))`;
}

/**
 * The end user a run names (metadata `user_id`, `ls_user_id`, `user.id` or `userId`): the same
 * expression as the Users page's index (migration 20261128050100_run_users).
 */
function runUserId(alias: string): SqlFragment {
  return sql`run_user_id(${raw(alias)}.extra)`;
}

function unsupported(node: Compare, field: string, allowed: string): never {
  throw new FilterSyntaxError(node.position, `${node.op} cannot be used on ${field}; expected ${allowed}`);
}

function nullCheck(expr: SqlFragment, node: Compare): SqlFragment | null {
  if (node.value !== null) return null;
  if (node.op === "eq") return sql`${expr} IS NULL`;
  if (node.op === "neq") return sql`${expr} IS NOT NULL`;
  return unsupported(node, "null", "eq or neq");
}

/** eq/neq/ordered comparisons/in for a column whose values `convert` turns into parameters. */
function scalar(expr: SqlFragment, node: Compare, type: string, convert: (v: Literal, p: number) => unknown, field: string): SqlFragment {
  const isNull = nullCheck(expr, node);
  if (isNull) return isNull;
  const { op, value, valuePosition } = node;
  const t = raw(type);
  if (op === "in") return sql`${expr} = ANY(${list(value, valuePosition).map((v) => convert(v, valuePosition))}::${t}[])`;
  if (op === "neq") return sql`${expr} IS DISTINCT FROM ${convert(value, valuePosition)}::${t}`;
  if (op === "eq" || ORDERED.has(op)) return sql`${expr} ${raw(OPS[op])} ${convert(value, valuePosition)}::${t}`;
  return unsupported(node, field, "eq, neq, gt, gte, lt, lte or in");
}

function textColumn(expr: SqlFragment, node: Compare, field: string): SqlFragment {
  const { op, value, valuePosition } = node;
  if (op === "like") return sql`${expr} LIKE ${text(value, valuePosition)}`;
  if (op === "has") return sql`${expr} ILIKE ${likeContains(text(value, valuePosition))}`;
  return scalar(expr, node, "text", text, field);
}

function boolValue(value: Literal, position: number): boolean {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  if (value === 1 || value === 0) return value === 1;
  throw new FilterSyntaxError(position, `expected true or false but found ${JSON.stringify(value)}`);
}

function errorField(a: SqlFragment, node: Compare): SqlFragment {
  const { op, value } = node;
  if (typeof value === "boolean" && (op === "eq" || op === "neq")) {
    return (op === "eq") === value ? sql`${a}.error IS NOT NULL` : sql`${a}.error IS NULL`;
  }
  return textColumn(sql`${a}.error`, node, "error");
}

function tagsField(a: SqlFragment, node: Compare): SqlFragment {
  const { op, value, valuePosition } = node;
  if (op === "has" || op === "eq") return sql`${a}.tags @> ${[text(value, valuePosition)]}::text[]`;
  if (op === "neq") return sql`NOT (${a}.tags @> ${[text(value, valuePosition)]}::text[])`;
  if (op === "in") return sql`${a}.tags && ${list(value, valuePosition).map((v) => text(v, valuePosition))}::text[]`;
  if (op === "like") return sql`EXISTS (SELECT 1 FROM unnest(${a}.tags) t WHERE t LIKE ${text(value, valuePosition)})`;
  return unsupported(node, "tags", "has, eq, neq, in or like");
}

function jsonColumn(a: SqlFragment, column: string): SqlFragment {
  return column === "metadata" ? sql`(${a}.extra->'metadata')` : sql`${a}.${raw(column)}`;
}

/** has(metadata, '{"k":"v"}') is containment; a plain word is a key that must exist. */
function jsonField(a: SqlFragment, node: Compare, column: string): SqlFragment {
  const { op, value, valuePosition } = node;
  if (op !== "has" && op !== "eq" && op !== "neq") return unsupported(node, column, "has, eq or neq");
  const doc = jsonObjectOf(value);
  let cond: SqlFragment;
  if (doc) {
    cond =
      column === "metadata"
        ? sql`${a}.extra @> ${storableJson({ metadata: doc })}::jsonb`
        : sql`${jsonColumn(a, column)} @> ${storableJson(doc)}::jsonb`;
  } else {
    cond = sql`(${jsonColumn(a, column)} ? ${text(value, valuePosition)})`;
  }
  return op === "neq" ? sql`NOT coalesce(${cond}, false)` : cond;
}

/** A token or cost column as a run shows it: its trace's total on a root run, its own elsewhere. */
function shownTotal(alias: string, column: string): SqlFragment {
  const a = raw(alias);
  const own = sql`${a}.${raw(column)}`;
  return sql`CASE WHEN ${a}.is_root THEN coalesce((SELECT tt.${raw(column)} FROM trace_totals tt
    WHERE tt.workspace_id = ${a}.workspace_id AND tt.trace_id = ${a}.trace_id), ${own}) ELSE ${own} END`;
}

function compareNode(alias: string, node: Compare): SqlFragment {
  const a = raw(alias);
  const spec: FieldSpec = fieldSpec(node.field);
  switch (spec.kind) {
    case "uuid":
      return scalar(sql`${a}.${raw(spec.column)}`, node, "uuid", uuid, node.field);
    case "text":
      return textColumn(sql`${a}.${raw(spec.column)}`, node, node.field);
    case "time":
      return scalar(sql`${a}.${raw(spec.column)}`, node, "timestamptz", instant, node.field);
    case "int":
    case "numeric": {
      // A root run shows its trace's totals, so a filter on it must match those same numbers.
      const shown = spec.rollup ? shownTotal(alias, spec.column) : sql`${a}.${raw(spec.column)}`;
      return scalar(sql`coalesce(${shown}, 0)`, node, "numeric", finite, node.field);
    }
    case "duration": {
      const expr =
        spec.column === "latency" ? sql`${a}.latency_ms` : sql`(EXTRACT(EPOCH FROM (${a}.first_token_time - ${a}.start_time)) * 1000)`;
      return scalar(expr, node, "float8", durationMs, node.field);
    }
    case "bool":
      if (node.op !== "eq" && node.op !== "neq") return unsupported(node, node.field, "eq or neq");
      return sql`${a}.${raw(spec.column)} ${raw(OPS[node.op])} ${boolValue(node.value, node.valuePosition)}`;
    case "error":
      return errorField(a, node);
    case "tags":
      return tagsField(a, node);
    case "json":
      return jsonField(a, node, spec.column);
    case "user":
      return textColumn(runUserId(alias), node, node.field);
    case "execution_order":
      // Runs no longer carry an execution order; "the first" still means the trace's root.
      return node.op === "eq" && node.value === 1 ? sql`${a}.is_root` : sql`TRUE`;
    case "pair":
      return compilePair(alias, { family: spec.family, [spec.part]: node });
  }
}

function searchNode(alias: string, node: Extract<FilterNode, { kind: "search" }>): SqlFragment {
  const a = raw(alias);
  const pattern = likeContains(escapeText(node.text));
  if (node.field === null) return sql`${searchText(alias)} ILIKE ${pattern}`;
  const spec = fieldSpec(node.field);
  if (spec.kind === "text") return sql`${a}.${raw(spec.column)} ILIKE ${pattern}`;
  if (spec.kind === "uuid") return sql`${a}.${raw(spec.column)}::text ILIKE ${pattern}`;
  if (spec.kind === "error") return sql`${a}.error ILIKE ${pattern}`;
  if (spec.kind === "user") return sql`${runUserId(alias)} ILIKE ${pattern}`;
  if (spec.kind === "json") return sql`${jsonColumn(a, spec.column)}::text ILIKE ${pattern}`;
  if (spec.kind === "tags") return sql`EXISTS (SELECT 1 FROM unnest(${a}.tags) t WHERE t ILIKE ${pattern})`;
  throw new FilterSyntaxError(
    node.position,
    `search cannot look in ${node.field}; expected a text field, inputs, outputs, metadata, error or tags`,
  );
}

function existsNode(alias: string, node: Extract<FilterNode, { kind: "exists" }>): SqlFragment {
  const a = raw(alias);
  const spec = fieldSpec(node.field);
  if (spec.kind === "json") {
    if (node.key === null) return sql`${jsonColumn(a, spec.column)} IS NOT NULL`;
    return sql`coalesce(${jsonColumn(a, spec.column)} ? ${node.key}, false)`;
  }
  if (node.key !== null)
    throw new FilterSyntaxError(node.position, `exists with a key needs metadata, inputs, outputs or extra, not ${node.field}`);
  if (spec.kind === "uuid" || spec.kind === "text" || spec.kind === "time" || spec.kind === "int" || spec.kind === "numeric") {
    return sql`${a}.${raw(spec.column)} IS NOT NULL`;
  }
  if (spec.kind === "error") return sql`${a}.error IS NOT NULL`;
  if (spec.kind === "user") return sql`${runUserId(alias)} IS NOT NULL`;
  if (spec.kind === "tags") return sql`cardinality(${a}.tags) > 0`;
  throw new FilterSyntaxError(node.position, `exists cannot test ${node.field}`);
}

function andNode(alias: string, args: FilterNode[]): SqlFragment {
  const parts: SqlFragment[] = [];
  const pairNodes: { node: Compare; family: PairFamily; part: "key" | "value" | "score" }[] = [];
  for (const arg of args) {
    const spec = arg.kind === "compare" ? fieldSpec(arg.field) : null;
    if (arg.kind === "compare" && spec?.kind === "pair") pairNodes.push({ node: arg, family: spec.family, part: spec.part });
    else parts.push(compileNode(alias, arg));
  }
  for (const group of groupPairs(pairNodes)) parts.push(compilePair(alias, group));
  return sql`(${parts.reduce((acc, p) => sql`${acc} AND ${p}`)})`;
}

export function compileNode(alias: string, node: FilterNode): SqlFragment {
  switch (node.kind) {
    case "and":
      return andNode(alias, node.args);
    case "or":
      return sql`(${node.args.map((n) => compileNode(alias, n)).reduce((acc, p) => sql`${acc} OR ${p}`)})`;
    case "not":
      return sql`NOT coalesce(${compileNode(alias, node.arg)}, false)`;
    case "compare":
      return compareNode(alias, node);
    case "search":
      return searchNode(alias, node);
    case "exists":
      return existsNode(alias, node);
  }
}
