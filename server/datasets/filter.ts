import { raw, sql, type SqlFragment } from "../db/sql";
import { escapeText, storableJson } from "../db/storable";
import type { FilterNode } from "../runs/filter/ast";
import { FilterSyntaxError } from "../runs/filter/errors";
import { parseFilter } from "../runs/filter/parse";
import { jsonObjectOf, likeContains, list, text, uuid } from "../runs/filter/values";

/**
 * The LangSmith filter language on examples (GET /examples?filter=): and/or/not, `has(metadata,
 * '{"k":"v"}')` (containment; a plain word is a key that must exist), `exists(metadata, "k")`,
 * `eq/neq/in` on id, and `search("text")` over inputs and outputs (or `search(metadata, "x")`).
 * Fields are metadata, inputs, outputs and id; the grammar is the runs filter's own parser.
 */
const JSON_FIELDS = new Set(["metadata", "inputs", "outputs"]);
const ALLOWED = "id, metadata, inputs or outputs";

function column(field: string, position: number): SqlFragment {
  if (!JSON_FIELDS.has(field)) throw new FilterSyntaxError(position, `examples can be filtered on ${ALLOWED}, not ${field}`);
  return raw(field);
}

function compare(node: Extract<FilterNode, { kind: "compare" }>): SqlFragment {
  const { op, field, value, valuePosition, position } = node;
  if (field === "id") {
    if (op === "eq") return sql`example_id = ${uuid(value, valuePosition)}::uuid`;
    if (op === "neq") return sql`example_id <> ${uuid(value, valuePosition)}::uuid`;
    if (op === "in") return sql`example_id = ANY(${list(value, valuePosition).map((v) => uuid(v, valuePosition))}::uuid[])`;
    throw new FilterSyntaxError(position, `${op} cannot be used on id; expected eq, neq or in`);
  }
  const col = column(field, position);
  if (op !== "has" && op !== "eq" && op !== "neq")
    throw new FilterSyntaxError(position, `${op} cannot be used on ${field}; expected has, eq or neq`);
  const doc = jsonObjectOf(value);
  const cond = doc
    ? sql`coalesce(${col}, '{}'::jsonb) @> ${storableJson(doc)}::jsonb`
    : sql`coalesce(${col} ? ${text(value, valuePosition)}, false)`;
  return op === "neq" ? sql`NOT ${cond}` : cond;
}

function compile(node: FilterNode): SqlFragment {
  switch (node.kind) {
    case "and":
    case "or": {
      const parts = node.args.map(compile);
      return sql`(${parts.reduce((acc, p) => sql`${acc} ${raw(node.kind === "and" ? "AND" : "OR")} ${p}`)})`;
    }
    case "not":
      return sql`NOT coalesce(${compile(node.arg)}, false)`;
    case "compare":
      return compare(node);
    case "search": {
      const pattern = likeContains(escapeText(node.text));
      if (node.field === null) return sql`(inputs::text || ' ' || coalesce(outputs::text, '')) ILIKE ${pattern}`;
      return sql`coalesce(${column(node.field, node.position)}::text, '') ILIKE ${pattern}`;
    }
    case "exists": {
      const col = column(node.field, node.position);
      return node.key === null ? sql`${col} IS NOT NULL` : sql`coalesce(${col} ? ${node.key}, false)`;
    }
  }
}

/** A boolean condition over example_versions (unaliased); 400 with a position for what it cannot read. */
export function compileExampleFilter(source: string): SqlFragment {
  return compile(parseFilter(source));
}
