import { route, reply } from "@/server/http/route";
import { badRequest } from "@/server/http/errors";
import { ingestRuns } from "@/server/ingest/service";
import { wireRun } from "@/server/ingest/schema";

export const PATCH = route({
  access: "write",
  body: wireRun,
  handler: async ({ ctx, body, params }) => {
    if (body.id && body.id !== params.runId) throw badRequest(`The body's id ${body.id} differs from the run id in the path (${params.runId}).`);
    await ingestRuns(ctx.sql, ctx.workspaceId, { patch: [{ ...body, id: params.runId }] });
    return reply(202, { message: "Run updated" });
  },
});
