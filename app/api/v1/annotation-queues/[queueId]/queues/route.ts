import { z } from "zod";
import { uuid } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queuesOfRun } from "@/server/review/queues/queues";
import { wireQueue } from "@/server/review/queues/wire";

/** GET /annotation-queues/{runId}/queues: the path's id here is a run's (LangSmith's path). */
export const GET = route({
  access: "read",
  params: z.object({ queueId: uuid }),
  response: z.array(wireQueue),
  handler: ({ ctx, params }) => queuesOfRun(ctx.sql, ctx.workspaceId, params.queueId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
