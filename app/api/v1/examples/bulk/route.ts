import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { createExamplesJson, updateExamplesJson } from "@/server/datasets/json-api";
import { exampleCreateMany, exampleUpdateMany, wireExample, wireWriteResult } from "@/server/datasets/schema";

export const POST = route({
  access: "write",
  body: exampleCreateMany,
  response: z.array(wireExample),
  handler: ({ ctx, body }) => createExamplesJson(ctx.sql, ctx.workspaceId, body),
});

export const PATCH = route({
  access: "write",
  body: exampleUpdateMany,
  response: wireWriteResult,
  handler: ({ ctx, body }) => updateExamplesJson(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, DELETE } = methodNotAllowed("POST", "PATCH");
