import { badRequest } from "../core/errors";
import { formatMicros, parseInstant } from "../core/time";

/** An ISO-8601 time (or epoch milliseconds) as the database's text, or a 400 naming the field. */
export function instantOf(value: string | number, field: string): string {
  const micros = parseInstant(value);
  if (micros === null) throw badRequest(`Invalid ${field}: ${JSON.stringify(value)} is not an ISO-8601 time or epoch milliseconds.`);
  return formatMicros(micros);
}
