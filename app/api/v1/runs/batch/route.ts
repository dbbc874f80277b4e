import { methodNotAllowed } from "@/server/http/not-found";
import { route, reply } from "@/server/http/route";
import { ingestRuns } from "@/server/ingest/service";
import { batchBody } from "@/server/ingest/schema";

export const POST = route({
  access: "write",
  body: batchBody,
  handler: async ({ ctx, body }) => {
    await ingestRuns(ctx.sql, ctx.workspaceId, { post: body.post ?? [], patch: body.patch ?? [] });
    return reply(202, {});
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
