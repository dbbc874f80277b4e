import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { deleteExamples } from "@/server/datasets/examples";
import { hardDelete, wireExamplesDeleted } from "@/server/datasets/schema";

/** deleteExamples(ids, {hardDelete: true}): every version of the examples is removed. */
export const POST = route({
  access: "write",
  body: hardDelete,
  response: wireExamplesDeleted,
  handler: ({ ctx, body }) => deleteExamples(ctx.sql, ctx.workspaceId, body.example_ids, body.hard_delete ?? true),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
