import { comparativeCreate, createComparativeExperiment, wireComparative } from "@/server/experiments/comparative";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

export const POST = route({
  access: "write",
  body: comparativeCreate,
  response: wireComparative,
  handler: ({ ctx, body }) => createComparativeExperiment(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
