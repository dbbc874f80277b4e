import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runsDelete } from "@/server/review/queues/schema";
import { removeQueueRuns } from "@/server/review/queues/service";

/** Removes these runs from the queue, or all of them but some. */
export const POST = route({
  access: "write",
  params: idParams("queueId"),
  body: runsDelete,
  response: z.object({ deleted: z.number() }),
  handler: ({ ctx, params, body }) => removeQueueRuns(ctx.sql, ctx.workspaceId, params.queueId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
