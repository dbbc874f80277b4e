/** The parsed form of a filter string such as `and(eq(run_type, "llm"), gt(latency, "5s"))`. */
export type Literal = string | number | boolean | null | Literal[];

export type Comparator = "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "has" | "in" | "like";

export type FilterNode =
  | { kind: "and" | "or"; args: FilterNode[]; position: number }
  | { kind: "not"; arg: FilterNode; position: number }
  | { kind: "compare"; op: Comparator; field: string; value: Literal; position: number; valuePosition: number }
  | { kind: "search"; field: string | null; text: string; position: number }
  | { kind: "exists"; field: string; key: string | null; position: number };
