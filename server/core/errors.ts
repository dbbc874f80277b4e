import { z } from "zod";

/**
 * Errors every domain raises. Their messages are safe to show the caller; the one error mapper
 * (server/http/errors.ts) turns them into a status and `{detail}`.
 */

/** An error whose message is safe to show the caller. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new AppError(400, detail);
export const unauthorized = (detail = "Missing or invalid API key: send it in the x-api-key header.") => new AppError(401, detail);
export const forbidden = (detail: string) => new AppError(403, detail);
export const notFound = (detail: string) => new AppError(404, detail);
export const conflict = (detail: string) => new AppError(409, detail);
export const payloadTooLarge = (detail: string) => new AppError(413, detail);
export const unsupportedMediaType = (detail: string) => new AppError(415, detail);
/** Well-formed, but a value is not one the contract allows (a run type outside the SDKs' list). */
export const unprocessable = (detail: string) => new AppError(422, detail);

/** Lower-level errors that carry a position or reason we can show (e.g. the filter parser). */
export interface ClientFacingError extends Error {
  readonly clientStatus: number;
}

export function isClientFacing(error: unknown): error is ClientFacingError {
  return error instanceof Error && typeof (error as Partial<ClientFacingError>).clientStatus === "number";
}

export function describeZodError(error: z.ZodError, where: string): string {
  const issues = error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join(".") : where}: ${i.message}`);
  return `Invalid ${where}: ${issues.join("; ")}`;
}

/**
 * PostgreSQL's refusals of a value the caller sent (SQLSTATE class 22, data exceptions, and 54000, a
 * value too large for an index): the caller's input, not a server failure.
 */
const DATA_ERRORS: Record<string, string> = {
  "22001": "a text value is longer than its field allows",
  "22003": "a number is out of range (counts must be below 2^31)",
  "22007": "a time is not in a valid format",
  "22008": "a time is out of range",
  "22021": "a text value contains a byte sequence that is not valid UTF-8, such as U+0000",
  "22P02": "a value has the wrong type",
  "22P05": "a text value contains U+0000 or a character that cannot be stored",
  "2201B": "a regular expression is invalid",
  "54000": "a value is too large to be stored or indexed (keep names, tags and ids under 1,000 characters)",
  "57014": "the query took too long and was cancelled; narrow it (a shorter time range, one project, a tighter filter)",
};

/**
 * The SQLSTATE of a failed statement: from the pg and PGlite drivers (`code`), or from Prisma
 * Client, which carries its driver adapter's error in `meta`.
 */
export function sqlState(error: unknown): string | null {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null;
  const viaPrisma = e?.meta?.driverAdapterError?.cause?.originalCode;
  if (typeof viaPrisma === "string") return viaPrisma;
  return typeof e?.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : null;
}

/** A unique constraint refused the write (23505): the caller names something that exists already. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";

/** The caller-facing description of a PostgreSQL data error, or null for any other failure. */
export function dataErrorDetail(error: unknown): string | null {
  const code = sqlState(error);
  if (!code) return null;
  const reason = DATA_ERRORS[code] ?? (code.startsWith("22") ? "a value cannot be stored" : null);
  return reason ? `Invalid input: ${reason} (${(error as Error).message}).` : null;
}
