import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { deleteExamples, readExample } from "@/server/datasets/examples";
import { updateExampleJson } from "@/server/datasets/json-api";
import { exampleReadQuery, exampleUpdate, wireExample, wireExamplesDeleted } from "@/server/datasets/schema";
import { isUuid } from "@/server/datasets/service";
import { notFound } from "@/server/core/errors";

export const GET = route({
  access: "read",
  query: exampleReadQuery,
  response: wireExample,
  handler: ({ ctx, query, params }) => readExample(ctx.sql, ctx.workspaceId, params.exampleId, query.as_of),
});

export const PATCH = route({
  access: "write",
  body: exampleUpdate,
  response: wireExample,
  handler: ({ ctx, body, params }) => {
    if (!isUuid(params.exampleId)) throw notFound(`Example ${params.exampleId} not found in this workspace.`);
    return updateExampleJson(ctx.sql, ctx.workspaceId, params.exampleId, body);
  },
});

export const DELETE = route({
  access: "write",
  response: wireExamplesDeleted,
  handler: ({ ctx, params }) => {
    if (!isUuid(params.exampleId)) throw notFound(`Example ${params.exampleId} not found in this workspace.`);
    return deleteExamples(ctx.sql, ctx.workspaceId, [params.exampleId]);
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
