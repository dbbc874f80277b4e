import type { Comparator, FilterNode, Literal } from "./ast";
import { FilterSyntaxError } from "./errors";
import { FIELD_NAMES, isField } from "./fields";
import { tokenize, type Token } from "./tokens";

const COMPARATORS = new Set<string>(["eq", "neq", "gt", "gte", "lt", "lte", "has", "in", "like"]);
const OPERATORS = ["and", "or", "not", ...COMPARATORS, "search", "exists"];

function describe(token: Token): string {
  return token.type === "end" ? "the end of the filter" : JSON.stringify(token.text);
}

/** Nesting beyond this is refused (no real filter comes near it; a deep one would exhaust the stack). */
const MAX_DEPTH = 100;
/** Longest search term: scanning every run for a long pattern only holds the database. */
export const MAX_SEARCH_CHARS = 1_000;

function searchTerm(token: Token, text = token.type === "string" ? token.value : ""): string {
  if (text.length > MAX_SEARCH_CHARS) {
    throw new FilterSyntaxError(token.position, `the search text is ${text.length} characters; at most ${MAX_SEARCH_CHARS} are searched`);
  }
  return text;
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    return this.tokens[this.index++];
  }

  private fail(token: Token, expected: string): never {
    throw new FilterSyntaxError(token.position, `expected ${expected} but found ${describe(token)}`);
  }

  private punct(text: Token["text"], expected = JSON.stringify(text)): Token {
    const token = this.next();
    if (token.type !== "punct" || token.text !== text) this.fail(token, expected);
    return token;
  }

  /** `,` then more, or `)` to finish: the commonest point of failure, so its message is exact. */
  private commaOrClose(): "," | ")" {
    const token = this.next();
    if (token.type === "punct" && (token.text === "," || token.text === ")")) return token.text;
    return this.fail(token, '"," or ")"');
  }

  parseRoot(): FilterNode {
    const node = this.expression();
    const rest = this.peek();
    if (rest.type !== "end") this.fail(rest, "the end of the filter");
    return node;
  }

  private expression(depth = 0): FilterNode {
    const head = this.next();
    if (depth > MAX_DEPTH) throw new FilterSyntaxError(head.position, `the filter nests deeper than ${MAX_DEPTH} levels`);
    if (head.type !== "ident") this.fail(head, `an operator such as ${OPERATORS.slice(0, 5).join(", ")}`);
    const op = head.text.toLowerCase();
    if (!OPERATORS.includes(op)) {
      throw new FilterSyntaxError(head.position, `unknown operator ${JSON.stringify(head.text)}; expected one of ${OPERATORS.join(", ")}`);
    }
    this.punct("(", `"(" after ${op}`);
    const position = head.position;
    if (op === "and" || op === "or") {
      const args = [this.expression(depth + 1)];
      while (this.commaOrClose() === ",") args.push(this.expression(depth + 1));
      return { kind: op, args, position };
    }
    if (op === "not") {
      const arg = this.expression(depth + 1);
      this.punct(")");
      return { kind: "not", arg, position };
    }
    if (op === "search") return this.search(position);
    if (op === "exists") {
      const field = this.field();
      let key: string | null = null;
      if (this.commaOrClose() === ",") {
        key = this.string();
        this.punct(")");
      }
      return { kind: "exists", field, key, position };
    }
    const field = this.field();
    this.punct(",", `"," and a value after the field ${field}`);
    const valuePosition = this.peek().position;
    const value = this.literal();
    this.punct(")");
    return { kind: "compare", op: op as Comparator, field, value, position, valuePosition };
  }

  private search(position: number): FilterNode {
    const first = this.peek();
    const second = this.tokens[this.index + 1];
    const quotedField = first.type === "string" && second?.type === "punct" && second.text === ",";
    if (first.type === "string" && !quotedField) {
      this.next();
      this.punct(")");
      return { kind: "search", field: null, text: searchTerm(first), position };
    }
    const field = this.field();
    this.punct(",", `"," and the text to search for after the field ${field}`);
    const text = searchTerm(this.peek(), this.string());
    this.punct(")");
    return { kind: "search", field, text, position };
  }

  /** A field name, bare (`metadata`) or quoted (`"metadata"`) as the SDK's own examples write it. */
  private field(): string {
    const token = this.next();
    if (token.type !== "ident" && token.type !== "string") this.fail(token, "a field name such as name, run_type or latency");
    const name = (token.type === "string" ? token.value : token.text).toLowerCase();
    if (!isField(name)) {
      throw new FilterSyntaxError(token.position, `unknown field ${JSON.stringify(token.text)}; expected one of ${FIELD_NAMES.join(", ")}`);
    }
    return name;
  }

  private string(): string {
    const token = this.next();
    if (token.type !== "string") this.fail(token, "a quoted string");
    return token.value;
  }

  private literal(): Literal {
    const token = this.next();
    if (token.type === "string" || token.type === "number") return token.value;
    if (token.type === "ident") {
      const word = token.text.toLowerCase();
      if (word === "true") return true;
      if (word === "false") return false;
      if (word === "null" || word === "none") return null;
    }
    if (token.type === "punct" && token.text === "[") {
      const items: Literal[] = [];
      if (this.peek().type === "punct" && this.peek().text === "]") {
        this.next();
        return items;
      }
      for (;;) {
        items.push(this.literal());
        const sep = this.next();
        if (sep.type === "punct" && sep.text === "]") return items;
        if (sep.type !== "punct" || sep.text !== ",") this.fail(sep, '"," or "]"');
      }
    }
    return this.fail(token, "a value (a quoted string, a number, true, false, null or [...])");
  }
}

/** Parses the LangSmith filter language into a tree; throws FilterSyntaxError with a position. */
export function parseFilter(source: string): FilterNode {
  return new Parser(tokenize(source)).parseRoot();
}
