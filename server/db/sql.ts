/**
 * A tiny SQL fragment builder. Values never enter the text: each one becomes a `$n` parameter,
 * renumbered when fragments are composed, so hand-written hot-path queries stay injection-free.
 */
export interface SqlFragment {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

const FRAGMENT = Symbol("sql");
type Fragment = SqlFragment & { [FRAGMENT]: true };

function fragment(strings: readonly string[], values: readonly unknown[]): Fragment {
  return { strings, values, [FRAGMENT]: true };
}

export function isSql(value: unknown): value is SqlFragment {
  return typeof value === "object" && value !== null && FRAGMENT in value;
}

/** sql`select * from runs where id = ${id} and ${otherFragment}` */
export function sql(strings: TemplateStringsArray | readonly string[], ...values: unknown[]): SqlFragment {
  const outStrings: string[] = [strings[0]];
  const outValues: unknown[] = [];
  values.forEach((value, i) => {
    if (isSql(value)) {
      outStrings[outStrings.length - 1] += value.strings[0];
      value.values.forEach((v, j) => {
        outValues.push(v);
        outStrings.push(value.strings[j + 1]);
      });
      outStrings[outStrings.length - 1] += strings[i + 1];
    } else {
      outValues.push(value);
      outStrings.push(strings[i + 1]);
    }
  });
  return fragment(outStrings, outValues);
}

/** Trusted SQL text (identifiers, keywords) that must never come from a request. */
export function raw(text: string): SqlFragment {
  return fragment([text], []);
}

export const empty: SqlFragment = raw("");

export function join(parts: readonly SqlFragment[], separator = ", "): SqlFragment {
  if (parts.length === 0) return empty;
  const strings = ["", ...parts.slice(1).map(() => separator), ""];
  return sql(strings, ...parts);
}

/** `$1, $2` numbered text and the values, ready for a driver. */
export function compile(query: SqlFragment): { text: string; values: unknown[] } {
  let text = query.strings[0];
  for (let i = 1; i < query.strings.length; i++) text += `$${i}` + query.strings[i];
  return { text, values: [...query.values] };
}

/**
 * `(workspace_id = …) IS TRUE` filters exactly like `workspace_id = …` but is not an index condition:
 * lookups by the request's ids then always go through the id (or trace, parent) index. Without it,
 * a table whose statistics lag behind its growth (a new or fast-growing one) gets plans that read
 * every run of the workspace on each request.
 */
export const inWorkspace = (workspaceId: string, alias = "") =>
  sql`(${raw(alias ? `${alias}.` : "")}workspace_id = ${workspaceId}::uuid) IS TRUE`;
