import { FilterSyntaxError } from "./errors";

export type Token =
  | { type: "ident"; text: string; position: number }
  | { type: "string"; value: string; text: string; position: number }
  | { type: "number"; value: number; text: string; position: number }
  | { type: "punct"; text: "(" | ")" | "," | "[" | "]"; position: number }
  | { type: "end"; text: ""; position: number };

const IDENT = /[A-Za-z_][A-Za-z0-9_.]*/y;
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "/": "/" };

function readString(source: string, start: number): { value: string; end: number } {
  const quote = source[start];
  let value = "";
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i];
    if (ch === quote) return { value, end: i + 1 };
    if (ch === "\\" && i + 1 < source.length) {
      const next = source[i + 1];
      if (next === "u" && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
        value += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
      value += ESCAPES[next] ?? next;
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  throw new FilterSyntaxError(start, `string starting here is never closed (expected a closing ${quote})`);
}

/** Splits a filter into tokens, each with its 0-based character position for error messages. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "(" || ch === ")" || ch === "," || ch === "[" || ch === "]") {
      tokens.push({ type: "punct", text: ch, position: i });
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const { value, end } = readString(source, i);
      tokens.push({ type: "string", value, text: source.slice(i, end), position: i });
      i = end;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(source);
    if (number && /[-\d.]/.test(ch)) {
      tokens.push({ type: "number", value: Number(number[0]), text: number[0], position: i });
      i += number[0].length;
      continue;
    }
    IDENT.lastIndex = i;
    const ident = IDENT.exec(source);
    if (ident) {
      tokens.push({ type: "ident", text: ident[0], position: i });
      i += ident[0].length;
      continue;
    }
    throw new FilterSyntaxError(i, `unexpected character ${JSON.stringify(ch)}`);
  }
  tokens.push({ type: "end", text: "", position: source.length });
  return tokens;
}
