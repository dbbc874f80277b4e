import { z } from "zod";
import { uuid } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { evaluatorCreate, evaluatorListQuery } from "@/server/evaluators/schema";
import { createEvaluator, deleteEvaluators, evaluatorFilterFromWire, listEvaluators, wireBulkDeleted } from "@/server/evaluators/service";
import { wireEvaluator } from "@/server/evaluators/store";

export const GET = route({
  access: "read",
  query: evaluatorListQuery,
  response: z.object({ evaluators: z.array(wireEvaluator), total: z.number() }),
  handler: ({ ctx, query }) => listEvaluators(ctx.sql, ctx.workspaceId, evaluatorFilterFromWire(query)),
});

export const POST = route({
  access: "write",
  body: evaluatorCreate,
  response: z.object({ evaluator: wireEvaluator }),
  handler: ({ ctx, body }) => createEvaluator(ctx.sql, ctx.workspaceId, body),
});

const many = z.union([uuid, z.array(uuid)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** Bulk delete: `?evaluator_ids=…&evaluator_ids=…`, each deleted or reported on its own. */
export const DELETE = route({
  access: "write",
  query: z.object({ evaluator_ids: many, delete_run_rules: z.stringbool().default(false) }),
  response: wireBulkDeleted,
  handler: ({ ctx, query }) => deleteEvaluators(ctx.sql, ctx.workspaceId, query.evaluator_ids, query.delete_run_rules),
});

export const { PUT, PATCH } = methodNotAllowed("GET", "POST", "DELETE");
