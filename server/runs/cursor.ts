import { badRequest } from "../core/errors";

/** Where a page ended: the last run's start time and id, in the page's order. */
export interface Cursor {
  startTime: string;
  id: string;
  order: "asc" | "desc";
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 1, t: cursor.startTime, i: cursor.id, o: cursor.order })).toString("base64url");
}

export function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (
      value?.v === 1 &&
      typeof value.t === "string" &&
      typeof value.i === "string" &&
      (value.o === "asc" || value.o === "desc") &&
      /^[0-9a-f-]{36}$/i.test(value.i) &&
      !Number.isNaN(Date.parse(value.t))
    ) {
      return { startTime: value.t, id: value.i, order: value.o };
    }
  } catch {
    // fall through to the error below
  }
  throw badRequest("Invalid cursor: pass back the cursors.next value of the previous page unchanged.");
}
