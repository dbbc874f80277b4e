import type { Sql } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { csvText } from "../core/csv";
import { isoFromDb } from "../core/time";
import { isUuid } from "../core/uuid";
import { recordAudit } from "./record";
import type { AuditQuery, WireAuditEntry } from "./schema";

type Row = Prisma.AuditLogGetPayload<object>;

function whereOf(workspaceId: string, q: Omit<AuditQuery, "cursor" | "limit">): Prisma.AuditLogWhereInput {
  const where: Prisma.AuditLogWhereInput = { workspaceId };
  if (q.actor) where.actorId = q.actor;
  if (q.action) where.action = q.action.endsWith(".*") ? { startsWith: q.action.slice(0, -1) } : q.action;
  if (q.start_time || q.end_time) where.at = { ...(q.start_time ? { gte: q.start_time } : {}), ...(q.end_time ? { lt: q.end_time } : {}) };
  return where;
}

/** The actors' names as they are now: users by e-mail, keys by their prefix. */
async function labels(db: Sql, rows: Row[]): Promise<Map<string, string>> {
  const ids = (kind: string) => [
    ...new Set(rows.filter((r) => r.actorKind === kind && r.actorId && !r.actorLabel && isUuid(r.actorId)).map((r) => r.actorId!)),
  ];
  const [users, keys] = await Promise.all([
    db.prisma.user.findMany({ where: { id: { in: ids("user") } }, select: { id: true, email: true } }),
    db.prisma.apiKey.findMany({ where: { id: { in: ids("api_key") } }, select: { id: true, prefix: true, description: true } }),
  ]);
  return new Map([
    ...users.map((u) => [u.id, u.email] as const),
    ...keys.map((k) => [k.id, `${k.prefix}…${k.description ? ` (${k.description})` : ""}`] as const),
  ]);
}

const wire = (r: Row, names: Map<string, string>): WireAuditEntry => ({
  id: r.id,
  at: isoFromDb(r.at)!,
  actor: { kind: r.actorKind, id: r.actorId, label: r.actorLabel ?? (r.actorId ? (names.get(r.actorId) ?? null) : null) },
  ip: r.ip,
  action: r.action,
  target_type: r.targetType,
  target_id: r.targetId,
  before: r.before,
  after: r.after,
});

/** GET /audit-logs: newest first, `limit` a page, `next_cursor` until the last page. */
export async function listAuditLogs(db: Sql, workspaceId: string, q: AuditQuery) {
  const where = whereOf(workspaceId, q);
  if (q.cursor) where.seq = { lt: BigInt(q.cursor) };
  const rows = await db.prisma.auditLog.findMany({ where, orderBy: { seq: "desc" }, take: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const names = await labels(db, page);
  return { items: page.map((r) => wire(r, names)), next_cursor: rows.length > q.limit ? page[page.length - 1]!.seq.toString() : null };
}

const EXPORT_PAGE = 1000;
const EXPORT_MAX = 100_000;

const CSV_HEADER = ["id", "at", "actor_kind", "actor_id", "actor_label", "ip", "action", "target_type", "target_id", "before", "after"];

/**
 * GET /audit-logs/export: every matching entry (up to 100,000, newest first) as JSON Lines or CSV,
 * read in pages so one export never holds the whole trail twice.
 */
export async function exportAuditLogs(db: Sql, workspaceId: string, q: Omit<AuditQuery, "cursor" | "limit"> & { format: "csv" | "jsonl" }) {
  const entries: WireAuditEntry[] = [];
  let cursor: bigint | null = null;
  while (entries.length < EXPORT_MAX) {
    const where = whereOf(workspaceId, q);
    if (cursor !== null) where.seq = { lt: cursor };
    const rows = await db.prisma.auditLog.findMany({ where, orderBy: { seq: "desc" }, take: EXPORT_PAGE });
    const names = await labels(db, rows);
    entries.push(...rows.map((r) => wire(r, names)));
    if (rows.length < EXPORT_PAGE) break;
    cursor = rows[rows.length - 1]!.seq;
  }
  await recordAudit(db.prisma, { workspaceId, action: "audit_log.export", after: { format: q.format, entries: entries.length } });
  if (q.format === "jsonl")
    return { contentType: "application/x-ndjson", text: entries.map((e) => JSON.stringify(e)).join("\n") + (entries.length ? "\n" : "") };
  const rows = entries.map((e) => [
    e.id,
    e.at,
    e.actor.kind,
    e.actor.id,
    e.actor.label,
    e.ip,
    e.action,
    e.target_type,
    e.target_id,
    e.before,
    e.after,
  ]);
  return { contentType: "text/csv; charset=utf-8", text: csvText(CSV_HEADER, rows) };
}

export async function auditSettings(db: Sql, workspaceId: string) {
  const w = await db.prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { auditRetentionDays: true } });
  return { retention_days: w.auditRetentionDays };
}

/** Sets how many days the workspace keeps its audit trail; the change is itself recorded. */
export async function setAuditRetention(db: Sql, workspaceId: string, days: number) {
  return db.prisma.$transaction(async (tx) => {
    const before = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { auditRetentionDays: true } });
    await tx.workspace.update({ where: { id: workspaceId }, data: { auditRetentionDays: days } });
    await recordAudit(tx, {
      workspaceId,
      action: "audit_log.retention.update",
      target: { type: "workspace", id: workspaceId },
      before: { retention_days: before.auditRetentionDays },
      after: { retention_days: days },
    });
    return { retention_days: days };
  });
}
