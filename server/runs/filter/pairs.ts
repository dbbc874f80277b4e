import { raw, sql, type SqlFragment } from "../../db/sql";
import type { FilterNode, Literal } from "./ast";
import { FilterSyntaxError } from "./errors";
import type { PairFamily } from "./fields";
import { finite, likeContains, list, text } from "./values";

type Compare = Extract<FilterNode, { kind: "compare" }>;

/** One key/value (or feedback key/score/value) group that must match the same entry. */
export interface PairGroup {
  family: PairFamily;
  key?: Compare;
  value?: Compare;
  score?: Compare;
}

const OPS: Record<string, string> = { eq: "=", neq: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };

function textPredicate(expr: SqlFragment, node: Compare): SqlFragment {
  const { op, value, valuePosition } = node;
  if (op === "in") return sql`${expr} = ANY(${list(value, valuePosition).map((v) => text(v, valuePosition))}::text[])`;
  if (op === "like") return sql`${expr} LIKE ${text(value, valuePosition)}`;
  if (op === "has") return sql`${expr} ILIKE ${likeContains(text(value, valuePosition))}`;
  if (op !== "eq" && op !== "neq" && typeof value === "number") {
    // Compared as numbers only where the stored text is one: '10' > '9' should hold.
    return sql`(CASE WHEN ${expr} ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (${expr})::numeric END) ${raw(OPS[op])} ${value}::numeric`;
  }
  return sql`${expr} ${raw(OPS[op])} ${text(value, valuePosition)}`;
}

function scalarJson(value: Literal): Literal[] {
  if (typeof value !== "string") return [value];
  const alternatives: Literal[] = [value];
  if (/^-?\d+(\.\d+)?$/.test(value)) alternatives.push(Number(value));
  if (value === "true" || value === "false") alternatives.push(value === "true");
  return alternatives;
}

function jsonObject(alias: string, family: Exclude<PairFamily, "feedback">): SqlFragment {
  const a = raw(alias);
  if (family === "metadata") return sql`(${a}.extra->'metadata')`;
  return family === "input" ? sql`${a}.inputs` : sql`${a}.outputs`;
}

/** Containment is what the GIN index on extra/inputs/outputs answers, so plain key = value pairs use it. */
function containment(alias: string, family: Exclude<PairFamily, "feedback">, key: string, value: Literal): SqlFragment {
  const a = raw(alias);
  const options = scalarJson(value).map((v) => {
    const doc = family === "metadata" ? { metadata: { [key]: v } } : { [key]: v };
    const column = family === "metadata" ? sql`${a}.extra` : family === "input" ? sql`${a}.inputs` : sql`${a}.outputs`;
    return sql`${column} @> ${JSON.stringify(doc)}::jsonb`;
  });
  return options.length === 1 ? options[0] : sql`(${options.reduce((acc, o) => sql`${acc} OR ${o}`)})`;
}

function positiveJsonPair(alias: string, family: Exclude<PairFamily, "feedback">, key?: Compare, value?: Compare): SqlFragment {
  const object = jsonObject(alias, family);
  if (
    key &&
    value &&
    key.op === "eq" &&
    value.op === "eq" &&
    typeof key.value === "string" &&
    value.value !== null &&
    !Array.isArray(value.value)
  ) {
    return containment(alias, family, key.value, value.value);
  }
  if (key && !value && key.op === "eq") return sql`(${object} ? ${text(key.value, key.valuePosition)})`;
  const predicates: SqlFragment[] = [];
  if (key) predicates.push(textPredicate(raw("e.key"), key));
  if (value) predicates.push(textPredicate(raw("e.value"), value));
  return sql`EXISTS (SELECT 1 FROM jsonb_each_text(CASE WHEN jsonb_typeof(${object}) = 'object' THEN ${object} END) e WHERE ${predicates.reduce((acc, p) => sql`${acc} AND ${p}`)})`;
}

function feedbackPair(alias: string, group: PairGroup): SqlFragment {
  const a = raw(alias);
  const f = raw(`fb_${alias}`);
  const predicates: SqlFragment[] = [];
  const negate = group.key?.op === "neq";
  if (group.key) predicates.push(textPredicate(sql`${f}.key`, negate ? { ...group.key, op: "eq" } : group.key));
  if (group.score) {
    const { op, value, valuePosition } = group.score;
    if (op === "in") predicates.push(sql`${f}.score = ANY(${list(value, valuePosition).map((v) => finite(v, valuePosition))}::float8[])`);
    else if (value === null) predicates.push(op === "neq" ? sql`${f}.score IS NOT NULL` : sql`${f}.score IS NULL`);
    else if (OPS[op]) predicates.push(sql`${f}.score ${raw(OPS[op])} ${finite(value, valuePosition)}::float8`);
    else throw new FilterSyntaxError(group.score.position, `${op} cannot compare feedback_score; expected eq, neq, gt, gte, lt, lte or in`);
  }
  if (group.value) predicates.push(textPredicate(sql`(${f}.value #>> '{}')`, group.value));
  const exists = sql`EXISTS (SELECT 1 FROM feedback ${f} WHERE ${f}.workspace_id = ${a}.workspace_id AND ${f}.run_id = ${a}.id${predicates.length ? sql` AND ${predicates.reduce((acc, p) => sql`${acc} AND ${p}`)}` : sql``})`;
  return negate ? sql`NOT ${exists}` : exists;
}

/**
 * `and(eq(metadata_key, "k"), eq(metadata_value, "v"))` means one entry k = v. A `neq` on either
 * part excludes the runs that have that entry, as LangSmith documents.
 */
export function compilePair(alias: string, group: PairGroup): SqlFragment {
  if (group.family === "feedback") return feedbackPair(alias, group);
  const negate = group.key?.op === "neq" || group.value?.op === "neq";
  const positive = (node?: Compare) => (node && node.op === "neq" ? { ...node, op: "eq" as const } : node);
  const cond = positiveJsonPair(alias, group.family, positive(group.key), positive(group.value));
  return negate ? sql`NOT ${cond}` : cond;
}

/** Groups the pair fields of one `and(...)` in order of appearance: the i-th key with the i-th value. */
export function groupPairs(nodes: { node: Compare; family: PairFamily; part: "key" | "value" | "score" }[]): PairGroup[] {
  const groups: PairGroup[] = [];
  const byFamily = new Map<PairFamily, { key: Compare[]; value: Compare[]; score: Compare[] }>();
  for (const { node, family, part } of nodes) {
    const parts = byFamily.get(family) ?? { key: [], value: [], score: [] };
    parts[part].push(node);
    byFamily.set(family, parts);
  }
  for (const [family, parts] of byFamily) {
    const n = Math.max(parts.key.length, parts.value.length, parts.score.length);
    for (let i = 0; i < n; i++) groups.push({ family, key: parts.key[i], value: parts.value[i], score: parts.score[i] });
  }
  return groups;
}
