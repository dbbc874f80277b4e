import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { modelPriceUpdate } from "@/server/llm/price-schema";
import { deleteModelPrice, updateModelPrice } from "@/server/llm/workspace-prices";

type Params = { priceId: string };

export const PATCH = route<"admin", typeof modelPriceUpdate, undefined, Params>({
  access: "admin",
  body: modelPriceUpdate,
  handler: ({ ctx, body, params }) => updateModelPrice(ctx.sql, ctx.workspaceId, params.priceId, body),
});

export const DELETE = route<"admin", undefined, undefined, Params>({
  access: "admin",
  handler: ({ ctx, params }) => deleteModelPrice(ctx.sql, ctx.workspaceId, params.priceId),
});

export const { GET, POST, PUT } = methodNotAllowed("PATCH", "DELETE");
