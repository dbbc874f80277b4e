import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { auditQuery, wireAuditPage } from "@/server/audit/schema";
import { listAuditLogs } from "@/server/audit/service";

/** The workspace's audit trail, newest first, filtered by actor, action and time, in cursor pages. */
export const GET = route({
  access: "admin",
  query: auditQuery,
  response: wireAuditPage,
  handler: ({ ctx, query }) => listAuditLogs(ctx.sql, ctx.workspaceId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
