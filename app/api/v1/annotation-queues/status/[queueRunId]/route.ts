import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { statusUpdate } from "@/server/review/queues/schema";
import { setItemStatus } from "@/server/review/queues/service";
import { wireStatus } from "@/server/review/queues/wire";

/** The classic status path: viewed, or completed by the caller; `override_added_at` moves the run. */
export const POST = route({
  access: "review",
  params: idParams("queueRunId"),
  body: statusUpdate,
  response: wireStatus,
  handler: ({ ctx, params, body }) => setItemStatus(ctx.sql, ctx.workspaceId, ctx.identity, params.queueRunId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
