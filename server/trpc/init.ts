import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import superjson from "superjson";
import { z } from "zod";
import type { Role } from "../auth/api-keys";
import { membership } from "../auth/users";
import { mayDo, refusal, type Action } from "../auth/policy";
import { withAuditActor } from "../audit/actor";
import type { Sql } from "../db/client";
import { AppError, dataErrorDetail, describeZodError } from "../core/errors";
import { unavailable } from "../http/errors";
import { rateLimiter } from "../ratelimit";
import { uuid } from "../core/uuid";

export interface TrpcContext {
  sql: Sql;
  /** Where a read that may be a little stale goes (a streaming replica when configured, see Database.reads). */
  reads?: () => Sql;
  /** The signed-in user (next-auth session), or null. */
  userId: string | null;
  /** The caller's address (trusted proxies only), for the rate limits of public procedures. */
  ip?: string;
}

const CODES: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
};

/** The services' errors (AppError, zod, the filter parser's positioned errors) as tRPC errors with the same message. */
function toTrpcError(error: TRPCError): TRPCError {
  const cause = error.cause;
  if (cause instanceof AppError)
    return new TRPCError({ code: CODES[cause.status] ?? "INTERNAL_SERVER_ERROR", message: cause.detail, cause });
  if (cause instanceof z.ZodError) return new TRPCError({ code: "BAD_REQUEST", message: describeZodError(cause, "input"), cause });
  const data = dataErrorDetail(cause);
  if (data) return new TRPCError({ code: "BAD_REQUEST", message: data, cause });
  const outage = unavailable(cause);
  if (outage) return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: outage.detail, cause });
  const status = (cause as { clientStatus?: unknown } | undefined)?.clientStatus;
  if (typeof status === "number" && cause) return new TRPCError({ code: CODES[status] ?? "BAD_REQUEST", message: cause.message, cause });
  return error;
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    // Internal failures keep their details in the server log, not in the browser.
    if (error.code === "INTERNAL_SERVER_ERROR") return { ...shape, message: "Internal server error" };
    return shape;
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const mapped = toTrpcError(result.error);
    if (mapped.code === "INTERNAL_SERVER_ERROR") console.error("tRPC procedure failed", result.error.cause ?? result.error);
    throw mapped;
  }
  return result;
});

export const publicProcedure = t.procedure.use(mapErrors);

/**
 * A public procedure under the same rate limits as the REST path it stands for (sign-up is
 * limited per address like POST /api/v1/auth/signup).
 */
export const limitedProcedure = (method: string, path: string) =>
  publicProcedure.use(async ({ ctx, next }) => {
    const decision = await rateLimiter().check({ method, path, userId: ctx.userId ?? undefined, ip: ctx.ip ?? "unknown" });
    if (!decision.allowed) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: decision.detail ?? "Rate limit exceeded" });
    return next();
  });

/** A signed-in user. */
export const userProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  const userId = ctx.userId;
  return withAuditActor({ kind: "user", id: userId, ip: ctx.ip ?? null }, () => next({ ctx: { ...ctx, userId } }));
});

export type { Role };

/**
 * A member of the workspace named by `input.workspaceId`. Someone else's workspace is a 404,
 * as in the REST API, so ids cannot be probed.
 */
export const workspaceProcedure = userProcedure.input(z.object({ workspaceId: uuid })).use(async ({ ctx, input, next }) => {
  const role = await membership(ctx.sql, ctx.userId, input.workspaceId);
  if (!role) throw new TRPCError({ code: "NOT_FOUND", message: `Workspace ${input.workspaceId} not found.` });
  return next({ ctx: { ...ctx, workspaceId: input.workspaceId, role } });
});

/**
 * A member's read that may be a few seconds stale (the runs table, statistics, charts): answered
 * from a streaming replica when one is fresh enough, membership still checked on the primary.
 */
export const workspaceReadProcedure = workspaceProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, sql: ctx.reads?.() ?? ctx.sql } }));

/** A member whose role may do `action` (server/auth/policy.ts), refused with the policy's message. */
const workspaceMay = (action: Action) =>
  workspaceProcedure.use(({ ctx, next }) => {
    if (!mayDo(ctx.role, action)) throw new TRPCError({ code: "FORBIDDEN", message: refusal(ctx.role, action) });
    return next();
  });

/** Members and admins: viewers and annotators can read but not change data. */
export const workspaceWriteProcedure = workspaceMay("write");
/** Feedback on runs: members, admins and annotators. */
export const workspaceFeedbackProcedure = workspaceMay("feedback");
/** Reviewing a queue's runs: members, admins and annotators (the service checks an annotator's assignment). */
export const workspaceReviewProcedure = workspaceMay("review");
export const workspaceAdminProcedure = workspaceMay("admin");
