import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { listSpendLimits, setSpendLimit } from "@/server/spend/limits";
import { spendLimitSet, wireSpendLimit } from "@/server/spend/schema";

export const GET = route({
  access: "read",
  response: z.array(wireSpendLimit),
  handler: ({ ctx }) => listSpendLimits(ctx.sql, ctx.workspaceId),
});

/** Spend limits are the workspace's budget: admins set them. */
export const PUT = route({
  access: "admin",
  body: spendLimitSet,
  response: z.array(wireSpendLimit),
  handler: ({ ctx, body }) => setSpendLimit(ctx.sql, ctx.workspaceId, body),
});

export const { POST, PATCH, DELETE } = methodNotAllowed("GET", "PUT");
