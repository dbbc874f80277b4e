import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { ruleUpdate } from "@/server/rules/schema";
import { deleteRule, readRule, updateRule } from "@/server/rules/service";

export const GET = route({
  access: "read",
  handler: ({ ctx, params }) => readRule(ctx.sql, ctx.workspaceId, params.ruleId),
});

export const PATCH = route({
  access: "write",
  body: ruleUpdate,
  handler: ({ ctx, params, body }) => updateRule(ctx.sql, ctx.workspaceId, params.ruleId, body),
});

export const DELETE = route({
  access: "write",
  handler: async ({ ctx, params }) => {
    await deleteRule(ctx.sql, ctx.workspaceId, params.ruleId);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
