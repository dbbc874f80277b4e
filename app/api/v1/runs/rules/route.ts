import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { z } from "zod";
import { ruleCreate, ruleListQuery, wireRule } from "@/server/rules/schema";
import { createRule, listRules } from "@/server/rules/service";

export const GET = route({
  access: "read",
  query: ruleListQuery,
  response: z.array(wireRule),
  handler: ({ ctx, query }) => listRules(ctx.sql, ctx.workspaceId, query),
});

export const POST = route({
  access: "write",
  body: ruleCreate,
  response: wireRule,
  handler: ({ ctx, body }) => createRule(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
