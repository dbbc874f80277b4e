import { z } from "zod";
import { isDatabaseUnavailable, reportUnavailable } from "../db/outage";
import { AppError, dataErrorDetail, describeZodError, isClientFacing } from "../core/errors";

/**
 * 503 with Retry-After while the database is unreachable (logged once per outage), or too busy to
 * finish an interactive transaction in time (Prisma's P2028: it expired, or waited too long for a
 * connection) — the SDKs retry both; else null. REST (errorResponse) and tRPC map with this.
 */
export function unavailable(error: unknown): AppError | null {
  if (!!error && typeof error === "object" && (error as { code?: unknown }).code === "P2028") {
    console.warn(`A database transaction timed out: ${(error as Error).message}`);
    return new AppError(503, "The server is busy (a database transaction timed out); retry shortly.", { "Retry-After": "5" });
  }
  if (!isDatabaseUnavailable(error)) return null;
  reportUnavailable(error);
  return new AppError(503, "The database is unavailable; retry shortly.", { "Retry-After": "5" });
}

/** The one error mapper: every failure leaves as a status and `{"detail": "..."}`. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) return Response.json({ detail: error.detail }, { status: error.status, headers: error.headers });
  if (error instanceof z.ZodError) return Response.json({ detail: describeZodError(error, "request") }, { status: 400 });
  if (isClientFacing(error)) return Response.json({ detail: error.message }, { status: error.clientStatus });
  const data = dataErrorDetail(error);
  if (data) return Response.json({ detail: data }, { status: 400 });
  const outage = unavailable(error);
  if (outage) return Response.json({ detail: outage.detail }, { status: outage.status, headers: outage.headers });
  console.error("Unhandled error", error);
  return Response.json({ detail: "Internal server error" }, { status: 500 });
}
