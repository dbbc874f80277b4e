import { z } from "zod";
import { isDatabaseUnavailable, reportUnavailable } from "../db/outage";
import { AppError, dataErrorDetail, describeZodError, isClientFacing } from "../core/errors";

/** 503 with Retry-After while the database is unreachable (logged once per outage), else null. */
export function unavailable(error: unknown): AppError | null {
  if (!isDatabaseUnavailable(error)) return null;
  reportUnavailable(error);
  return new AppError(503, "The database is unavailable; retry shortly.", { "Retry-After": "5" });
}

/**
 * Prisma's P2028: an interactive transaction expired (or waited too long for a connection) because
 * the database is too busy to serve it in time. A 503 the SDKs retry, not a 500.
 */
function transactionTimedOut(error: unknown): boolean {
  return !!error && typeof error === "object" && (error as { code?: unknown }).code === "P2028";
}

/** The one error mapper: every failure leaves as a status and `{"detail": "..."}`. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) return Response.json({ detail: error.detail }, { status: error.status, headers: error.headers });
  if (error instanceof z.ZodError) return Response.json({ detail: describeZodError(error, "request") }, { status: 400 });
  if (isClientFacing(error)) return Response.json({ detail: error.message }, { status: error.clientStatus });
  const data = dataErrorDetail(error);
  if (data) return Response.json({ detail: data }, { status: 400 });
  if (transactionTimedOut(error)) {
    console.warn(`A database transaction timed out: ${(error as Error).message}`);
    return Response.json(
      { detail: "The server is busy (a database transaction timed out); retry shortly." },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }
  const outage = unavailable(error);
  if (outage) return Response.json({ detail: outage.detail }, { status: outage.status, headers: outage.headers });
  console.error("Unhandled error", error);
  return Response.json({ detail: "Internal server error" }, { status: 500 });
}
