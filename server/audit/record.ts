import { randomUUID } from "node:crypto";
import type { Prisma } from "../db/generated/client";
import type { PrismaClient } from "../db/generated/client";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { currentActor, type AuditActor } from "./actor";

/** What changed, in the words of the audit trail (docs/access.md lists every action). */
export interface AuditEntry {
  /** Null only for a failed sign-in with an address no account has. */
  workspaceId: string | null;
  /** `<thing>.<verb>`, e.g. "api_key.create". */
  action: string;
  target?: { type: string; id: string | null };
  before?: unknown;
  after?: unknown;
  /** Defaults to the request's caller (withAuditActor). */
  actor?: AuditActor;
}

/** Field names whose values never enter the trail, however deep: keys, secrets, passwords, tokens. */
const SECRET = /(^|_)(key|api_?key|secret|password|password_hash|token|token_hash|hash|credentials?|authorization|headers)$/i;
const MAX_STRING = 2000;

/** A summary fit for the trail: secrets replaced by "[redacted]", long strings cut, depth bounded. */
export function summary(value: unknown, depth = 0): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value !== "object") return value;
  if (depth > 6) return "[…]";
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => summary(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[k] = SECRET.test(k) ? "[redacted]" : summary(v, depth + 1);
  }
  return out;
}

const json = (value: unknown) => (value === undefined ? undefined : ((summary(value) as Prisma.InputJsonValue | null) ?? undefined));

/**
 * Appends one entry to the audit trail. Pass the transaction of the change (`tx`) so the entry
 * exists exactly when the change does; the actor is the request's caller unless given.
 * Never call it on the ingest path.
 */
export async function recordAudit(db: Pick<PrismaClient, "auditLog"> | Prisma.TransactionClient | Sql, entry: AuditEntry): Promise<void> {
  const actor = entry.actor ?? currentActor();
  if (!("auditLog" in db)) {
    // An Sql.tx transaction (set-based use cases): the same row through its connection.
    const asJson = (v: unknown) => (v === undefined ? null : JSON.stringify(summary(v)));
    await db.query(sql`
      INSERT INTO audit_log (id, workspace_id, actor_kind, actor_id, actor_label, ip, action, target_type, target_id, before, after)
      VALUES (${randomUUID()}::uuid, ${entry.workspaceId}::uuid, ${actor.kind}, ${actor.id}, ${actor.label ?? null}, ${actor.ip},
              ${entry.action}, ${entry.target?.type ?? null}, ${entry.target?.id ?? null}, ${asJson(entry.before)}::jsonb, ${asJson(entry.after)}::jsonb)`);
    return;
  }
  await db.auditLog.create({
    data: {
      id: randomUUID(),
      workspaceId: entry.workspaceId,
      actorKind: actor.kind,
      actorId: actor.id,
      actorLabel: actor.label ?? null,
      ip: actor.ip,
      action: entry.action,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      before: json(entry.before),
      after: json(entry.after),
    },
  });
}
