import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { backfillCreate } from "@/server/evaluators/schema";
import { listBackfills, startBackfill } from "@/server/rules/backfill";
import { wireBackfill } from "@/server/rules/schema";

const params = idParams("ruleId");

/** The rule's backfills, newest first, each with its progress. */
export const GET = route({
  access: "read",
  params,
  response: z.array(wireBackfill),
  handler: ({ ctx, params }) => listBackfills(ctx.sql, ctx.workspaceId, params.ruleId),
});

/** Starts a backfill: the rule's evaluator over the matching runs of a past time range (end: now). */
export const POST = route({
  access: "write",
  params,
  body: backfillCreate,
  response: wireBackfill,
  handler: ({ ctx, params, body }) =>
    startBackfill(ctx.sql, ctx.workspaceId, params.ruleId, { start: body.start_time, end: body.end_time ?? new Date() }),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
