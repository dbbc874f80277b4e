import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { deleteExamples, listExamples } from "@/server/datasets/examples";
import { createExampleJson } from "@/server/datasets/json-api";
import {
  exampleCreate,
  exampleDeleteQuery,
  exampleFilterFromWire,
  exampleListQuery,
  wireExample,
  wireExamplesDeleted,
} from "@/server/datasets/schema";

export const GET = route({
  access: "read",
  query: exampleListQuery,
  response: z.array(wireExample),
  handler: ({ ctx, query }) => listExamples(ctx.sql, ctx.workspaceId, exampleFilterFromWire(query)),
});

export const POST = route({
  access: "write",
  body: exampleCreate,
  response: wireExample,
  handler: ({ ctx, body }) => createExampleJson(ctx.sql, ctx.workspaceId, body),
});

/** DELETE /examples?example_ids=a&example_ids=b: soft delete (earlier versions keep them). */
export const DELETE = route({
  access: "write",
  query: exampleDeleteQuery,
  response: wireExamplesDeleted,
  handler: ({ ctx, query }) => deleteExamples(ctx.sql, ctx.workspaceId, query.example_ids),
});

export const { PUT, PATCH } = methodNotAllowed("GET", "POST", "DELETE");
