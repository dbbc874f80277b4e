import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { extendQuery, queueRunsQuery, runsAdd } from "@/server/review/queues/schema";
import { addRuns, queueRuns, reviewerOf } from "@/server/review/queues/service";
import { wireItem, wireQueueRun } from "@/server/review/queues/wire";

const params = idParams("queueId");

/** The queue's runs, whole, with their place in the queue and who reviewed them. */
export const GET = route({
  access: "read",
  params,
  query: queueRunsQuery,
  response: z.array(wireQueueRun),
  handler: ({ ctx, params, query }) => queueRuns(ctx.sql, ctx.workspaceId, reviewerOf(ctx.identity), params.queueId, query),
});

/** Adds runs by id (the classic client's deprecated form) or as objects with run_id. */
export const POST = route({
  access: "write",
  params,
  body: runsAdd,
  query: extendQuery,
  response: z.array(wireItem),
  handler: ({ ctx, params, body, query }) =>
    addRuns(ctx.sql, ctx.workspaceId, params.queueId, body, { extendTraceRetention: query.extend_trace_retention }),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
