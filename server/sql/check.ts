import { hasSqlDetails, parse, scan } from "libpg-query";
import { badRequest, type AppError } from "../core/errors";
import { BOUND_FUNCTIONS, FUNCTIONS, NODES, SET_RETURNING, TYPES, VALUE_FUNCTIONS, VIEWS } from "./allowed";

/**
 * The most operators, keywords and opening brackets a query may have. Each can nest the parse
 * tree one level deeper, and the parser, the checker and PostgreSQL all recurse on it: a 12,000-term
 * sum already overflows the parser's stack. A long IN (…) list is not counted (commas, constants).
 */
export const MAX_NESTING_TOKENS = 1000;

/**
 * Checks a read-only SQL query with PostgreSQL's own parser (libpg_query): one SELECT over the
 * views in `allowed.ts`, with allowed functions and types only, and a start_time lower bound on
 * every read of runs. Answers the query's text up to the statement's end (no trailing semicolon) or refuses with
 * a 400 that names the problem and where it starts.
 */
export async function checkQuery(query: string): Promise<string> {
  const refuse = (message: string, location?: number) => refusal(query, message, location);
  const nul = query.indexOf("\u0000");
  if (nul >= 0)
    throw badRequest(`The query contains U+0000 (a NUL character) at character ${nul + 1}: PostgreSQL text cannot hold it; remove it.`);
  await requireBoundedNesting(query);
  let tree: Awaited<ReturnType<typeof parse>>;
  try {
    tree = await parse(query);
  } catch (error) {
    if (hasSqlDetails(error)) throw refuse(`Syntax error: ${error.message}`, error.sqlDetails?.cursorPosition);
    throw error;
  }
  const statements = tree.stmts ?? [];
  if (statements.length === 0) throw badRequest("The query is empty: write one SELECT statement.");
  if (statements.length > 1) throw refuse("Only one statement is allowed", statements[1]!.stmt_location);
  const { stmt, stmt_location: start = 0, stmt_len: length } = statements[0]!;
  const [type, body] = Object.entries(stmt ?? {})[0] ?? [];
  if (type !== "SelectStmt") throw refuse(`Only a SELECT statement is allowed, not ${words(type ?? "nothing")}`, start);
  new Checker(refuse).select(body as Node, new Set());
  // From the start (comments before the statement keep positions in the caller's text) to its end.
  return query.slice(0, byteToChar(query, start + (length || Infinity)));
}

type Node = Record<string, unknown>;
type Refuse = (message: string, location?: number) => AppError;

class Checker {
  constructor(private readonly refuse: Refuse) {}

  /** A SELECT (or a set operation of them) with `ctes` visible: the names WITH clauses around it define. */
  select(select: Node, ctes: ReadonlySet<string>): void {
    if (select.intoClause) throw this.refuse("SELECT INTO is not allowed: a query only reads", location(select.intoClause));
    if (select.lockingClause) throw this.refuse("Locking clauses (FOR UPDATE, FOR SHARE) are not allowed: a query only reads");
    let visible = ctes;
    const withClause = select.withClause as Node | undefined;
    if (withClause) {
      if (withClause.recursive) throw this.refuse("WITH RECURSIVE is not allowed", location(withClause));
      // A CTE sees the ones before it; the statement sees them all.
      const names = new Set(ctes);
      for (const cte of (withClause.ctes as Node[]) ?? []) {
        const body = cte.CommonTableExpr as Node;
        this.walk(body.ctequery, new Set(names));
        names.add(String(body.ctename));
      }
      visible = names;
    }
    for (const side of ["larg", "rarg"] as const) if (select[side]) this.select(select[side] as Node, visible);
    this.requireRunsBound(select, visible);
    this.requireOneSetReturning(select);
    for (const [key, value] of Object.entries(select)) {
      if (!["withClause", "larg", "rarg"].includes(key)) this.walk(value, visible);
    }
  }

  /** Any part of the tree: every node is one of NODES, with its own rules. */
  private walk(value: unknown, ctes: ReadonlySet<string>): void {
    if (Array.isArray(value)) return value.forEach((item) => this.walk(item, ctes));
    if (!value || typeof value !== "object") return;
    for (const [key, child] of Object.entries(value as Node)) {
      if (!/^[A-Z]/.test(key)) {
        this.walk(child, ctes);
        continue;
      }
      const node = child as Node;
      if (!NODES.has(key)) throw this.refuse(`${words(key)} is not allowed in a query`, location(node));
      if (key === "SelectStmt") {
        this.select(node, ctes);
        continue;
      }
      if (key === "RangeVar") this.relation(node, ctes);
      if (key === "FuncCall") this.function(node);
      if (key === "TypeCast") this.type(node.typeName as Node);
      if (key === "TypeName") this.type(node);
      if (key === "SQLValueFunction" && !VALUE_FUNCTIONS.has(String(node.op)))
        throw this.refuse(`${words(String(node.op).replace(/^SVFOP_/, ""))} is not allowed in a query`, location(node));
      this.walk(node, ctes);
    }
  }

  private relation(range: Node, ctes: ReadonlySet<string>): void {
    const name = String(range.relname);
    if (range.schemaname || range.catalogname)
      throw this.refuse(`Name the views without a schema: ${[...VIEWS].join(", ")}`, location(range));
    if (!ctes.has(name) && !VIEWS.has(name))
      throw this.refuse(`Unknown table "${name}": a query reads the views ${[...VIEWS].join(" and ")}`, location(range));
  }

  private function(call: Node): void {
    const parts = names(call.funcname);
    const name = parts.length === 2 && parts[0] === "pg_catalog" ? parts[1]! : parts.length === 1 ? parts[0]! : "";
    if (!FUNCTIONS.has(name)) throw this.refuse(`Function ${parts.join(".")}() is not allowed in a query`, location(call));
  }

  private type(typeName: Node | undefined): void {
    if (!typeName) return;
    const parts = names(typeName.names);
    const name = parts.length === 2 && parts[0] === "pg_catalog" ? parts[1]! : parts.length === 1 ? parts[0]! : "";
    if (!TYPES.has(name)) throw this.refuse(`Type ${parts.join(".")} is not allowed in a query`, location(typeName));
  }

  /**
   * At most one FROM item of a SELECT may be a set-returning function (json_array_elements, unnest,
   * …) or a subquery that calls one. The planner takes each for 100 rows whatever the array holds;
   * joined, their product is unbounded (three arrays of 10,000 elements are 10^12 rows), so the cost
   * bound cannot see it.
   */
  private requireOneSetReturning(select: Node): void {
    const unknown: Node[] = [];
    const collect = (item: unknown): void => {
      const [type, node] = (Object.entries((item ?? {}) as Node)[0] ?? []) as [string, Node];
      if (type === "JoinExpr") return [node.larg, node.rarg].forEach(collect);
      if (type === "RangeFunction" || (type === "RangeSubselect" && callsSetReturning(node))) unknown.push(node);
    };
    ((select.fromClause as unknown[]) ?? []).forEach(collect);
    if (unknown.length > 1)
      throw this.refuse(
        "At most one set-returning function (json_array_elements, unnest, …) may be joined in a FROM: the rows of two or more multiply without a bound the planner can see. Expand one, aggregate it in a subquery, then join",
        firstLocation(unknown[1]),
      );
  }

  /** Every read of the runs view in this SELECT's FROM needs `start_time >= …` (or >, =, BETWEEN) among its conditions. */
  private requireRunsBound(select: Node, ctes: ReadonlySet<string>): void {
    const reads: { alias: string; at: number | undefined }[] = [];
    const conditions: Node[] = conjuncts(select.whereClause);
    const collect = (item: unknown): void => {
      const [type, node] = (Object.entries((item ?? {}) as Node)[0] ?? []) as [string, Node];
      if (type === "RangeVar" && node.relname === "runs" && !ctes.has("runs"))
        reads.push({ alias: String((node.alias as Node | undefined)?.aliasname ?? "runs"), at: location(node) });
      if (type === "JoinExpr") {
        collect(node.larg);
        collect(node.rarg);
        conditions.push(...conjuncts(node.quals));
      }
    };
    ((select.fromClause as unknown[]) ?? []).forEach(collect);
    for (const read of reads) {
      const bounds = conditions.map((condition) => boundsStartTime(condition, read.alias));
      if (bounds.includes("bound")) continue;
      if (bounds.includes("not finite"))
        throw this.refuse(
          "A start_time bound must be a finite time, written from literals, now() and intervals (not infinity, not built from text): for example start_time >= now() - interval '7 days'",
          read.at,
        );
      throw this.refuse(
        `Queries over runs need a start_time lower bound: add for example WHERE ${read.alias === "runs" ? "" : `${read.alias}.`}start_time >= now() - interval '7 days'`,
        read.at,
      );
    }
  }
}

/** Scans (without parsing, which recurses) and refuses a query that could nest too deeply. */
async function requireBoundedNesting(query: string): Promise<void> {
  // Each counted token is one character at least.
  if (query.length <= MAX_NESTING_TOKENS) return;
  let tokens: Awaited<ReturnType<typeof scan>>["tokens"];
  try {
    ({ tokens } = await scan(query));
  } catch {
    return; // Not even tokens: the parser says where.
  }
  const nesting = tokens.filter((token) => !LEAF_TOKENS.has(token.tokenName) && !LEAF_TEXT.has(token.text)).length;
  if (nesting > MAX_NESTING_TOKENS)
    throw badRequest(
      `The query is too complex: at most ${MAX_NESTING_TOKENS.toLocaleString("en")} operators, keywords and opening brackets are allowed, it has ${nesting.toLocaleString("en")}. Write long lists of conditions as IN (…) or join a VALUES list.`,
    );
}

const LEAF_TOKENS = new Set(["IDENT", "UIDENT", "ICONST", "FCONST", "SCONST", "USCONST", "BCONST", "XCONST", "SQL_COMMENT", "C_COMMENT"]);
const LEAF_TEXT = new Set([",", ")", "]", ".", ";"]);

function callsSetReturning(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(callsSetReturning);
  if (!node || typeof node !== "object") return false;
  const call = (node as Node).FuncCall as Node | undefined;
  if (call && SET_RETURNING.has(names(call.funcname).at(-1) ?? "")) return true;
  return Object.values(node as Node).some(callsSetReturning);
}

/** The conditions ANDed together at the top of a WHERE or ON. */
function conjuncts(expression: unknown): Node[] {
  if (!expression) return [];
  const bool = (expression as Node).BoolExpr as Node | undefined;
  if (bool?.boolop === "AND_EXPR") return (bool.args as unknown[]).flatMap(conjuncts);
  return [expression as Node];
}

/**
 * Whether a condition bounds `alias`.start_time from below: `>=`, `>`, `=` (either way round) or
 * BETWEEN a time expression; "not finite" when that expression is not made of literals other than
 * infinity, now() and intervals (text functions could spell infinity).
 */
function boundsStartTime(condition: Node, alias: string): "bound" | "not finite" | "none" {
  const expression = condition.A_Expr as Node | undefined;
  if (!expression) return "none";
  const op = names(expression.name)[0];
  const isColumn = (side: unknown) => {
    const fields = names(((side as Node | undefined)?.ColumnRef as Node | undefined)?.fields);
    return fields.at(-1) === "start_time" && (fields.length === 1 || (fields.length === 2 && fields[0] === alias));
  };
  const time = (side: unknown) =>
    JSON.stringify(side ?? null).includes('"ColumnRef"') ? "none" : finiteTime(side) ? "bound" : "not finite";
  if (expression.kind === "AEXPR_BETWEEN")
    return isColumn(expression.lexpr)
      ? time((((expression.rexpr as Node | undefined)?.List as Node | undefined)?.items as unknown[])?.[0])
      : "none";
  if (expression.kind !== "AEXPR_OP") return "none";
  if ([">", ">=", "="].includes(op ?? "") && isColumn(expression.lexpr)) return time(expression.rexpr);
  if (["<", "<=", "="].includes(op ?? "") && isColumn(expression.rexpr)) return time(expression.lexpr);
  return "none";
}

/** Literals (no infinity: PostgreSQL reads 'inf…' as infinity), casts, + - * /, now() and the time functions. */
function finiteTime(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(finiteTime);
  if (!value || typeof value !== "object") return true;
  return Object.entries(value as Node).every(([key, child]) => {
    const node = child as Node;
    if (key === "sval" && typeof child === "string") return !/inf/i.test(child);
    if (!/^[A-Z]/.test(key)) return finiteTime(child);
    if (!FINITE_NODES.has(key)) return false;
    if (key === "A_Expr" && (node.kind !== "AEXPR_OP" || !["+", "-", "*", "/"].includes(names(node.name)[0] ?? ""))) return false;
    if (key === "FuncCall" && !BOUND_FUNCTIONS.has(names(node.funcname).at(-1) ?? "")) return false;
    return finiteTime(node);
  });
}

const FINITE_NODES = new Set(["A_Const", "TypeCast", "TypeName", "A_Expr", "FuncCall", "SQLValueFunction", "String", "Integer", "Float"]);

/** The strings of a name list (`[{String: {sval}}]`); a `*` is "*". */
function names(list: unknown): string[] {
  return ((list as Node[] | undefined) ?? []).map((item) => {
    const string = item.String as Node | undefined;
    return string ? String(string.sval) : "*";
  });
}

/** The first position inside a node that has none of its own (a RangeFunction). */
function firstLocation(node: unknown): number | undefined {
  if (!node || typeof node !== "object") return undefined;
  const own = location(node);
  if (own !== undefined) return own;
  for (const child of Object.values(node)) {
    const at = firstLocation(child);
    if (at !== undefined) return at;
  }
  return undefined;
}

function location(node: unknown): number | undefined {
  const at = (node as Node | undefined)?.location;
  return typeof at === "number" && at >= 0 ? at : undefined;
}

/** "CreateStmt" → "a CreateStmt statement"; "XmlExpr" → "XmlExpr". Node names are PostgreSQL's own. */
function words(type: string): string {
  return type.endsWith("Stmt")
    ? `a ${type
        .slice(0, -4)
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .toUpperCase()} statement`
    : type;
}

/** libpg_query's locations count bytes of UTF-8. */
function byteToChar(query: string, bytes: number): number {
  return Number.isFinite(bytes) ? Buffer.from(query).subarray(0, bytes).toString().length : query.length;
}

function refusal(query: string, message: string, location?: number): AppError {
  if (location === undefined) return badRequest(`${message}.`);
  const at = byteToChar(query, location) + 1;
  return badRequest(`${message} (at character ${at}: "${query.slice(at - 1, at + 19).trim()}").`);
}
