import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { z } from "zod";
import { runKey } from "@/server/review/queues/schema";
import { addRuns } from "@/server/review/queues/service";
import { wireItem } from "@/server/review/queues/wire";

/** Adds runs by key (run id, project and start time), the form the SDKs prefer. */
export const POST = route({
  access: "write",
  params: idParams("queueId"),
  body: z.array(runKey).max(10_000),
  response: z.array(wireItem),
  handler: ({ ctx, params, body }) => addRuns(ctx.sql, ctx.workspaceId, params.queueId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
