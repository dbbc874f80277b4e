import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { evaluatorUpdate } from "@/server/evaluators/schema";
import { deleteEvaluator, readEvaluator, updateEvaluator } from "@/server/evaluators/service";
import { wireEvaluator } from "@/server/evaluators/store";

export const GET = route({
  access: "read",
  response: wireEvaluator,
  handler: ({ ctx, params }) => readEvaluator(ctx.sql, ctx.workspaceId, params.evaluatorId),
});

export const PATCH = route({
  access: "write",
  body: evaluatorUpdate,
  response: z.object({ evaluator: wireEvaluator }),
  handler: ({ ctx, params, body }) => updateEvaluator(ctx.sql, ctx.workspaceId, params.evaluatorId, body),
});

export const DELETE = route({
  access: "write",
  query: z.object({ delete_run_rules: z.stringbool().default(false) }),
  response: z.object({}),
  handler: async ({ ctx, params, query }) => {
    await deleteEvaluator(ctx.sql, ctx.workspaceId, params.evaluatorId, query.delete_run_rules);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
