import { z } from "zod";

/** An error whose message is safe to show the caller; the one error mapper turns it into `{detail}`. */
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

/** Lower-level errors that carry a position or reason we can show (e.g. the filter parser). */
export interface ClientFacingError extends Error {
  readonly clientStatus: number;
}

function isClientFacing(error: unknown): error is ClientFacingError {
  return error instanceof Error && typeof (error as Partial<ClientFacingError>).clientStatus === "number";
}

export function describeZodError(error: z.ZodError, where: string): string {
  const issues = error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join(".") : where}: ${i.message}`);
  return `Invalid ${where}: ${issues.join("; ")}`;
}

/** The one error mapper: every failure leaves as a status and `{"detail": "..."}`. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) return Response.json({ detail: error.detail }, { status: error.status, headers: error.headers });
  if (error instanceof z.ZodError) return Response.json({ detail: describeZodError(error, "request") }, { status: 400 });
  if (isClientFacing(error)) return Response.json({ detail: error.message }, { status: error.clientStatus });
  console.error("Unhandled error", error);
  return Response.json({ detail: "Internal server error" }, { status: 500 });
}
