import { methodNotAllowed } from "@/server/http/not-found";
import { route, reply } from "@/server/http/route";
import { readMultipartIngest } from "@/server/ingest/multipart";
import { ingestRuns } from "@/server/ingest/service";

export const POST = route({
  access: "write",
  body: "multipart",
  handler: async ({ ctx, body }) => {
    const { feedback, ...runs } = readMultipartIngest(body);
    await ingestRuns(ctx.sql, ctx.workspaceId, { ...runs, feedback });
    return reply(202, {});
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
