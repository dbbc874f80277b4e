import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { modelPriceCreate, modelPriceListQuery } from "@/server/llm/price-schema";
import { createModelPrice, listModelPrices, wireModelPrice } from "@/server/llm/workspace-prices";

export const GET = route({
  access: "read",
  query: modelPriceListQuery,
  response: z.array(wireModelPrice),
  handler: ({ ctx, query }) => listModelPrices(ctx.sql, ctx.workspaceId, query),
});

export const POST = route({
  access: "admin",
  body: modelPriceCreate,
  response: wireModelPrice,
  handler: ({ ctx, body }) => createModelPrice(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
