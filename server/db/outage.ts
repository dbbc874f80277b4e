/**
 * Telling "the database is unreachable" apart from every other failure, so it is answered 503 with
 * Retry-After (the SDKs retry that) and logged once per outage rather than once per request.
 */

/** Node socket errors, PostgreSQL's connection-exception class (08) and shutdown/overload codes. */
const CODES = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|EPIPE|08...|57P0[123]|53300)$/;
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Can't reach database server|connection error|the database system is (starting up|shutting down|not yet accepting connections|not accepting connections|in recovery mode)|Client was closed/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, originalCode, message, cause, errors, meta } = error as {
    code?: unknown;
    originalCode?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  // Prisma's driver adapter keeps PostgreSQL's SQLSTATE as originalCode (its own code is P2010/P2039).
  if ([code, originalCode].some((c) => typeof c === "string" && CODES.test(c))) return true;
  if (typeof message === "string" && MESSAGES.test(message)) return true;
  // AggregateError (a connect to each resolved address), and errors wrapping the driver's.
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  if (meta && typeof meta === "object" && isDatabaseUnavailable(meta.driverAdapterError, depth + 1)) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

let outage: { since: number; requests: number } | null = null;

/** Counts a request that met the outage; the first one of an outage is logged. */
export function reportUnavailable(error: unknown): void {
  if (outage) {
    outage.requests += 1;
    return;
  }
  outage = { since: Date.now(), requests: 1 };
  console.error(`The database is unavailable (${error instanceof Error ? error.message : String(error)}); answering 503 until it is back.`);
}

/**
 * Called after a request the database served: ends (and logs the end of) an outage. Only a request
 * that began after the outage did proves the database is back: one already under way when it went
 * down may finish on work done before (so an outage is logged once, not once per such request).
 */
export function reportAvailable(startedAt: number = Date.now()): void {
  if (!outage || startedAt <= outage.since) return;
  const seconds = ((Date.now() - outage.since) / 1000).toFixed(0);
  console.error(`The database is back after ${seconds} s; ${outage.requests} requests were answered 503 meanwhile.`);
  outage = null;
}
