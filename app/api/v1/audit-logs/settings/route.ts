import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { auditSettingsPatch, wireAuditSettings } from "@/server/audit/schema";
import { auditSettings, setAuditRetention } from "@/server/audit/service";

/** How long the workspace keeps its audit trail (days, default 365). */
export const GET = route({
  access: "admin",
  response: wireAuditSettings,
  handler: ({ ctx }) => auditSettings(ctx.sql, ctx.workspaceId),
});

export const PATCH = route({
  access: "admin",
  body: auditSettingsPatch,
  response: wireAuditSettings,
  handler: ({ ctx, body }) => setAuditRetention(ctx.sql, ctx.workspaceId, body.retention_days),
});

export const { POST, PUT, DELETE } = methodNotAllowed("GET", "PATCH");
