import type { z } from "zod";
import { checkResponse } from "../http/route";

/**
 * A procedure's `.output()` from the schema its REST route answers with: the answer is checked as
 * REST checks it (a mismatch is a 500) and passed on as the service made it, not re-parsed, so both
 * wires carry the same fields and the check allocates nothing.
 */
export function answers<S extends z.ZodType>(schema: S): (value: unknown) => z.output<S> {
  return (value) => {
    checkResponse(schema, value);
    return value as z.output<S>;
  };
}
