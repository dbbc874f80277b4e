import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { createFromMultipart, updateFromMultipart } from "@/server/datasets/multipart";
import { wireWriteResult } from "@/server/datasets/schema";

/** The SDKs' createExamples: multipart parts per example; `{count, example_ids, as_of}`. */
export const POST = route({
  access: "write",
  body: "multipart",
  response: wireWriteResult,
  handler: ({ ctx, body, params }) => createFromMultipart(ctx.sql, ctx.workspaceId, params.datasetId, body),
});

/** The SDKs' updateExamples: the same parts plus attachments_operations. */
export const PATCH = route({
  access: "write",
  body: "multipart",
  response: wireWriteResult,
  handler: ({ ctx, body, params }) => updateFromMultipart(ctx.sql, ctx.workspaceId, params.datasetId, body),
});

export const { GET, PUT, DELETE } = methodNotAllowed("POST", "PATCH");
