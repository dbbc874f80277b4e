import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { placeItem, reviewerOf } from "@/server/review/queues/service";
import { wirePlacement } from "@/server/review/queues/wire";

/** The item's section for the caller, its position there, and a cursor that starts the page at it. */
export const GET = route({
  access: "read",
  params: idParams("queueId", "itemId"),
  response: wirePlacement,
  handler: ({ ctx, params }) => placeItem(ctx.sql, ctx.workspaceId, reviewerOf(ctx.identity), params.queueId, params.itemId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
