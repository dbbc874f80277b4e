import { z } from "zod";
import { uuid } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queueRunAtIndex } from "@/server/review/queues/service";
import { wireQueueRun } from "@/server/review/queues/wire";

/** The index-th run not yet done, in queue order. */
export const GET = route({
  access: "read",
  params: z.object({ queueId: uuid, index: z.coerce.number().int().min(0) }),
  response: wireQueueRun,
  handler: ({ ctx, params }) => queueRunAtIndex(ctx.sql, ctx.workspaceId, params.queueId, params.index),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
