import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sseStream } from "@/server/http/sse";
import { datasetRun, openDatasetRun } from "@/server/playground/experiment";

/**
 * "Run over dataset": a playground variant run on every example of a dataset as an experiment,
 * answered as server-sent events: `progress` (`{done, total}`) as examples finish, then `done`
 * with the experiment's id.
 */
export const POST = route({
  answers: {
    contentType: "text/event-stream",
    description: "Server-sent events: `progress` (`{done, total}`) per example, then `done` with the experiment.",
  },
  access: "write",
  body: datasetRun,
  handler: async ({ ctx, body, request }) => {
    const experiment = await openDatasetRun(ctx.sql, ctx.workspaceId, body);
    return sseStream(request.signal, async (send) => {
      send("done", await experiment.run((done, total) => send("progress", { done, total })));
    });
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
