import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { pageQuery, wireRuleLog } from "@/server/rules/schema";
import { ruleLogs } from "@/server/rules/service";

export const GET = route({
  access: "read",
  query: pageQuery,
  response: z.array(wireRuleLog),
  handler: ({ ctx, params, query }) => ruleLogs(ctx.sql, ctx.workspaceId, params.ruleId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
