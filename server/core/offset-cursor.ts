import { z } from "zod";
import { badRequest } from "./errors";

/**
 * Opaque cursors for lists paged by position (the v2 API's `cursor`/`next_cursor` where no keyset
 * fits): the offset of the next page, base64url JSON.
 */
export const encodeOffset = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString("base64url");

/** A v2 page as the SDKs read it: `{items, next_cursor}` (null on the last page). */
export const cursorPage = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

/** The offset a cursor holds (0 for none); a cursor we did not make is a 400. */
export function decodeOffset(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  try {
    const offset = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))?.o;
    if (Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // the error below
  }
  throw badRequest("Invalid cursor: pass back the next_cursor of the previous page unchanged.");
}
