import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queryRunsV2, runQueryV2 } from "@/server/runs/query-v2";

/** A page of runs in the v2 shape (`client.runs.query`), followed with `next_cursor`. */
export const POST = route({
  access: "read",
  body: runQueryV2,
  handler: ({ ctx, body }) => queryRunsV2(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
