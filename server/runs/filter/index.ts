import type { SqlFragment } from "../../db/sql";
import { compileNode } from "./compile";
import { parseFilter } from "./parse";

export { FilterSyntaxError } from "./errors";
export { parseFilter } from "./parse";
export { searchText } from "./compile";

/**
 * A filter string as a boolean SQL condition over the runs row aliased `alias` (a fixed alias
 * chosen by our code). Throws FilterSyntaxError (400) for a filter we cannot read.
 */
export function compileFilter(source: string, alias: string): SqlFragment {
  return compileNode(alias, parseFilter(source));
}

/** A filter narrowed by the search box's text (`search("...")`, the same full-text match). */
export function withSearch(filter: string | undefined, search: string | undefined): string | undefined {
  const text = search?.trim();
  if (!text) return filter || undefined;
  const term = `search(${JSON.stringify(text)})`;
  return filter ? `and(${filter}, ${term})` : term;
}
