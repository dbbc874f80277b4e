import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { auditExportQuery } from "@/server/audit/schema";
import { exportAuditLogs } from "@/server/audit/service";

/** The matching entries as a download: `?format=jsonl` (default) or `?format=csv`. */
export const GET = route({
  access: "admin",
  query: auditExportQuery,
  answers: {
    contentType: "text/csv",
    description: "The matching audit entries as a CSV or JSON Lines (`format=jsonl`, application/x-ndjson) download.",
  },
  handler: async ({ ctx, query }) => {
    const file = await exportAuditLogs(ctx.sql, ctx.workspaceId, query);
    return new Response(file.text, {
      headers: { "content-type": file.contentType, "content-disposition": `attachment; filename="audit-log.${query.format}"` },
    });
  },
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
