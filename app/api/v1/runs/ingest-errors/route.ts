import { z } from "zod";
import { ingestErrorsQuery, listRefusals, wireRefusal } from "@/server/ingest/errors-log";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

/** The runs ingest refused lately (newest first), for the workspace or one project (`session`). */
export const GET = route({
  access: "read",
  query: ingestErrorsQuery,
  response: z.array(wireRefusal),
  handler: ({ ctx, query }) => listRefusals(ctx.sql, ctx.workspaceId, { projectId: query.session, limit: query.limit }),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
