import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runSqlQuery, sqlQueryBody, wireSqlQueryResult } from "@/server/sql/query";

/** One read-only SELECT over the views `runs` and `feedback` of the given projects (`client.sql.query`). */
export const POST = route({
  access: "read",
  body: sqlQueryBody,
  response: wireSqlQueryResult,
  handler: ({ ctx, body }) => runSqlQuery(ctx.sql, ctx.workspaceId, { projectIds: body.project_ids, query: body.query }),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
