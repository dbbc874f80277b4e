import { z } from "zod";
import { instant } from "../core/instant";

/** GET /audit-logs: filters and a cursor (the `next_cursor` of the page before). */
export const auditQuery = z.object({
  /** A user id or an API key id. */
  actor: z.string().trim().min(1).max(100).optional(),
  /** An action ("api_key.create"), or a family with a trailing ".*" ("api_key.*"). */
  action: z
    .string()
    .trim()
    .regex(/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/, "must be an action such as api_key.create, or a family such as api_key.*")
    .optional(),
  start_time: instant.optional(),
  end_time: instant.optional(),
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, "must be the next_cursor of the page before")
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditExportQuery = auditQuery
  .omit({ cursor: true, limit: true })
  .extend({ format: z.enum(["csv", "jsonl"]).default("jsonl") });

export const wireAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ kind: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
  ip: z.string().nullable(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type WireAuditEntry = z.infer<typeof wireAuditEntry>;

export const wireAuditPage = z.object({ items: z.array(wireAuditEntry), next_cursor: z.string().nullable() });

export const auditSettingsPatch = z.object({ retention_days: z.number().int().min(1).max(3650) });
export const wireAuditSettings = z.object({ retention_days: z.number().int() });
