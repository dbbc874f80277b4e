import type { Sql } from "../db/client";
import { badRequest, forbidden, notFound } from "../core/errors";
import type { Identity } from "./identity";
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord, type Role } from "./api-keys";
import { isUuid } from "../core/uuid";
import { recordAudit } from "../audit/record";

/** A key as listed: never its secret, only the prefix that lets a person recognise it. */
export function keyView(record: ApiKeyRecord) {
  return {
    id: record.id,
    short_key: `${record.prefix}…`,
    prefix: record.prefix,
    description: record.description,
    kind: record.kind,
    role: record.role,
    user_id: record.userId,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
  };
}

/** The trail names a key by its prefix, never by the key. */
const auditKey = (db: Sql, record: ApiKeyRecord, action: string) =>
  recordAudit(db.prisma, {
    workspaceId: record.workspaceId,
    action,
    target: { type: "api_key", id: record.id },
    after: { kind: record.kind, role: record.role, prefix: record.prefix, description: record.description, user_id: record.userId },
  });

/** Admins see every live key of the workspace; others see the service keys and their own personal keys. */
export async function listKeys(db: Sql, identity: Identity) {
  const all = await listApiKeys(db, identity.workspaceId);
  const visible = identity.role === "admin" ? all : all.filter((k) => k.kind === "service" || (k.userId && k.userId === identity.userId));
  return visible.map(keyView);
}

/**
 * Personal keys belong to the calling user and carry the user's role in the workspace at creation.
 * Service keys belong to the workspace and only admins create them (role default admin).
 * The plain key is in this answer and nowhere else, ever.
 */
export async function createKey(db: Sql, identity: Identity, input: { description: string; kind?: "service" | "personal"; role?: Role }) {
  const kind = input.kind ?? (identity.kind === "user" ? "personal" : "service");
  if (kind === "personal") {
    if (!identity.userId) throw badRequest("A personal key belongs to a user: sign in (or use your personal key) to create one.");
    if (input.role && input.role !== identity.role) {
      throw badRequest(`A personal key has its user's role in the workspace (${identity.role}); leave out role.`);
    }
    const { key, record } = await createApiKey(db.prisma, {
      workspaceId: identity.workspaceId,
      userId: identity.userId,
      kind,
      role: identity.role,
      description: input.description,
    });
    await auditKey(db, record, "api_key.create");
    return { ...keyView(record), key };
  }
  if (identity.role !== "admin") throw forbidden("Only workspace admins can create service keys.");
  const { key, record } = await createApiKey(db.prisma, {
    workspaceId: identity.workspaceId,
    kind,
    role: input.role ?? "admin",
    description: input.description,
  });
  await auditKey(db, record, "api_key.create");
  return { ...keyView(record), key };
}

/** Admins revoke any key of the workspace; a user revokes their own personal keys. */
export async function revokeKey(db: Sql, identity: Identity, keyId: string): Promise<void> {
  const missing = () => notFound(`API key ${keyId} not found in this workspace (or already revoked).`);
  if (!isUuid(keyId)) throw missing();
  const row = await db.prisma.apiKey.findFirst({
    where: { id: keyId, workspaceId: identity.workspaceId, revokedAt: null },
    select: { kind: true, userId: true, role: true, prefix: true, description: true },
  });
  if (!row) throw missing();
  const own = row.kind === "personal" && row.userId !== null && row.userId === identity.userId;
  if (identity.role !== "admin" && !own) {
    throw forbidden("Only workspace admins can revoke this key: you can revoke your own personal keys.");
  }
  if (!(await revokeApiKey(db, identity.workspaceId, keyId))) throw missing();
  await recordAudit(db.prisma, {
    workspaceId: identity.workspaceId,
    action: "api_key.revoke",
    target: { type: "api_key", id: keyId },
    before: { kind: row.kind, role: row.role, prefix: row.prefix, description: row.description, user_id: row.userId },
  });
}
