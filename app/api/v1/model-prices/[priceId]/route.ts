import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { idParams } from "@/server/core/uuid";
import { modelPriceUpdate } from "@/server/llm/price-schema";
import { deleteModelPrice, updateModelPrice, wireModelPrice } from "@/server/llm/workspace-prices";

const params = idParams("priceId");

export const PATCH = route({
  access: "admin",
  body: modelPriceUpdate,
  params,
  response: wireModelPrice,
  handler: ({ ctx, body, params }) => updateModelPrice(ctx.sql, ctx.workspaceId, params.priceId, body),
});

export const DELETE = route({
  answers: DELETED,
  access: "admin",
  params,
  handler: ({ ctx, params }) => deleteModelPrice(ctx.sql, ctx.workspaceId, params.priceId),
});

export const { GET, POST, PUT } = methodNotAllowed("PATCH", "DELETE");
