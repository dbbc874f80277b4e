import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { exportQuery } from "@/server/review/queues/schema";
import { exportQueueRuns } from "@/server/review/queues/service";

/** The done runs with their feedback, as JSON or (`"format": "csv"`) as a CSV file. */
export const POST = route({
  answers: { contentType: "text/csv", description: "The queue's runs as CSV (an attachment), or JSON rows when the body asks for them." },
  access: "read",
  params: idParams("queueId"),
  body: exportQuery,
  handler: async ({ ctx, params, body }) => {
    const result = await exportQueueRuns(ctx.sql, ctx.workspaceId, params.queueId, body);
    if (typeof result !== "string") return result;
    return new Response(result, {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="queue-${params.queueId}.csv"` },
    });
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
