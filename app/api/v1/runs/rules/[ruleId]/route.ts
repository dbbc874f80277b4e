import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { ruleUpdate, wireRule } from "@/server/rules/schema";
import { deleteRule, readRule, updateRule } from "@/server/rules/service";

const params = idParams("ruleId");

export const GET = route({
  access: "read",
  params,
  response: wireRule,
  handler: ({ ctx, params }) => readRule(ctx.sql, ctx.workspaceId, params.ruleId),
});

export const PATCH = route({
  access: "write",
  params,
  body: ruleUpdate,
  response: wireRule,
  handler: ({ ctx, params, body }) => updateRule(ctx.sql, ctx.workspaceId, params.ruleId, body),
});

export const DELETE = route({
  access: "write",
  params,
  response: z.object({}),
  handler: async ({ ctx, params }) => {
    await deleteRule(ctx.sql, ctx.workspaceId, params.ruleId);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
