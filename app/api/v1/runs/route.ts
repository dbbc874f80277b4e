import { methodNotAllowed } from "@/server/http/not-found";
import { route, reply } from "@/server/http/route";
import { ingestRuns } from "@/server/ingest/service";
import { wireRun } from "@/server/ingest/schema";

export const POST = route({
  access: "write",
  ingest: true,
  body: wireRun,
  handler: async ({ ctx, body }) => {
    await ingestRuns(ctx.sql, ctx.workspaceId, { post: [body] });
    return reply(202, { message: "Run created" });
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
