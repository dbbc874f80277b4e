import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { triggerRule } from "@/server/rules/evaluate";
import { wireRuleReport } from "@/server/rules/schema";

/** Applies the rule now to matching finished runs it has not seen; answers what it did. */
export const POST = route({
  access: "write",
  query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(1000) }),
  response: wireRuleReport,
  handler: ({ ctx, params, query }) => triggerRule(ctx.sql, ctx.workspaceId, params.ruleId, query.limit),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
