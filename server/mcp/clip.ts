/** How much of a run's payload an agent gets: enough to read, never a context window's worth. */
export const FIELD_CHARS = 2_000;
/** The most characters of payload (inputs, outputs) one answer carries; runs past it list without them. */
export const ANSWER_CHARS = 200_000;

/** The start of a value's text with how much was left out, so an agent knows to ask for less or look at one run. */
export const cutText = (head: string, chars: number) => `${head}… [${(chars - head.length).toLocaleString("en")} more characters cut]`;

/** A JSON value cut to `max` characters of its JSON text: kept whole when it fits, else cut (cutText). */
export function clip(value: unknown, max: number): unknown {
  if (value === undefined || value === null) return value ?? null;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text.length <= max) return value;
  return cutText(text.slice(0, max), text.length);
}

/** A budget of characters shared by the runs of one answer. */
export class Budget {
  constructor(private left = ANSWER_CHARS) {}

  /** The clipped value when the budget still allows it, else null (and `spent` says so). */
  take(value: unknown, max: number): unknown {
    return this.spend(clip(value, max));
  }

  /** A value already cut to size, when the budget still allows it (else undefined, and `spent` says so). */
  spend(clipped: unknown): unknown {
    if (this.left <= 0) return undefined;
    this.left -= JSON.stringify(clipped ?? null).length;
    return clipped;
  }

  get spent(): boolean {
    return this.left <= 0;
  }
}

/** A tool's answer: the JSON text agents read, and the same as structured content. */
export function jsonResult(value: Record<string, unknown>) {
  return { content: [{ type: "text" as const, text: JSON.stringify(value, null, 1) }], structuredContent: value };
}
