import { z } from "zod";
import { instant } from "@/server/core/instant";
import { uuid } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { evaluatorSpend, wireEvaluatorSpend } from "@/server/evaluators/service";

export const GET = route({
  access: "read",
  query: z.object({
    period_start: instant,
    group_by: z.enum(["evaluator", "run_rule", "resource"]).optional(),
    evaluator_id: uuid.optional(),
    session_id: uuid.optional(),
    dataset_id: uuid.optional(),
  }),
  response: wireEvaluatorSpend,
  handler: ({ ctx, query }) =>
    evaluatorSpend(ctx.sql, ctx.workspaceId, {
      periodStart: query.period_start,
      groupBy: query.group_by,
      evaluatorId: query.evaluator_id,
      projectId: query.session_id,
      datasetId: query.dataset_id,
    }),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
