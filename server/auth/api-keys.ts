import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { env } from "../env";

export type Role = "admin" | "member" | "viewer";
export type Region = "us" | "eu";

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  userId: string | null;
  kind: "service" | "personal";
  role: Role;
  description: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** Keys carry their region, so a key used in the wrong region can be pointed at the right one. */
export function regionOfKey(key: string): Region | null {
  const match = /^tl_(us|eu)_/.exec(key);
  return match ? (match[1] as Region) : null;
}

export async function createApiKey(
  db: Sql,
  input: { workspaceId: string; userId?: string | null; kind?: "service" | "personal"; role?: Role; description?: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `tl_${env().REGION}_${randomBytes(24).toString("base64url")}`;
  const [row] = await db.query<Record<string, unknown>>(sql`
    INSERT INTO api_keys (id, workspace_id, user_id, kind, role, description, prefix, hash)
    VALUES (${randomUUID()}, ${input.workspaceId}, ${input.userId ?? null}, ${input.kind ?? "service"},
            ${input.role ?? "admin"}, ${input.description ?? ""}, ${key.slice(0, 10)}, ${hashKey(key)})
    RETURNING *`);
  return { key, record: toRecord(row) };
}

export async function listApiKeys(db: Sql, workspaceId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.query<Record<string, unknown>>(
    sql`SELECT * FROM api_keys WHERE workspace_id = ${workspaceId} AND revoked_at IS NULL ORDER BY created_at DESC`,
  );
  return rows.map(toRecord);
}

export async function revokeApiKey(db: Sql, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db.query(sql`
    UPDATE api_keys SET revoked_at = now() WHERE id = ${id} AND workspace_id = ${workspaceId} AND revoked_at IS NULL RETURNING id`);
  return rows.length > 0;
}

/** Records use at most once a minute per key (called when a key is looked up, not on every request). */
export async function touchApiKey(db: Sql, id: string): Promise<void> {
  await db.query(sql`
    UPDATE api_keys SET last_used_at = now()
    WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`);
}

/** Finds the live key for a presented secret; the comparison of hashes is constant-time. */
export async function findApiKey(db: Sql, key: string): Promise<ApiKeyRecord | null> {
  const hash = hashKey(key);
  const [row] = await db.query<Record<string, unknown>>(sql`SELECT * FROM api_keys WHERE hash = ${hash} AND revoked_at IS NULL`);
  if (!row || !timingSafeEqual(Buffer.from(String(row.hash)), Buffer.from(hash))) return null;
  return toRecord(row);
}

function toRecord(row: Record<string, unknown>): ApiKeyRecord {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    userId: (row.user_id as string | null) ?? null,
    kind: row.kind as ApiKeyRecord["kind"],
    role: row.role as Role,
    description: String(row.description ?? ""),
    prefix: String(row.prefix),
    createdAt: String(row.created_at),
    lastUsedAt: (row.last_used_at as string | null) ?? null,
    revokedAt: (row.revoked_at as string | null) ?? null,
  };
}
