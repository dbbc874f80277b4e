import { auditExportQuery, auditQuery, auditSettingsPatch, wireAuditPage, wireAuditSettings } from "../../audit/schema";
import { auditSettings, exportAuditLogs, listAuditLogs, setAuditRetention } from "../../audit/service";
import { router, workspaceAdminProcedure } from "../init";
import { answers } from "../output";

/** Settings → Audit log: the same services as GET /audit-logs, its export and its retention. */
export const auditRouter = router({
  list: workspaceAdminProcedure
    .input(auditQuery)
    .output(answers(wireAuditPage))
    .query(({ ctx, input }) => listAuditLogs(ctx.sql, ctx.workspaceId, input)),
  export: workspaceAdminProcedure.input(auditExportQuery).mutation(({ ctx, input }) => exportAuditLogs(ctx.sql, ctx.workspaceId, input)),
  settings: workspaceAdminProcedure.output(answers(wireAuditSettings)).query(({ ctx }) => auditSettings(ctx.sql, ctx.workspaceId)),
  setRetention: workspaceAdminProcedure
    .input(auditSettingsPatch)
    .output(answers(wireAuditSettings))
    .mutation(({ ctx, input }) => setAuditRetention(ctx.sql, ctx.workspaceId, input.retention_days)),
});
