import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { statusUpdate } from "@/server/review/queues/schema";
import { setItemStatus } from "@/server/review/queues/service";
import { wireStatus } from "@/server/review/queues/wire";

export const POST = route({
  access: "review",
  params: idParams("itemId"),
  body: statusUpdate,
  response: wireStatus,
  handler: ({ ctx, params, body }) => setItemStatus(ctx.sql, ctx.workspaceId, ctx.identity, params.itemId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
