import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Sql, Tx } from "../db/client";
import type { ApiKey as ApiKeyRow } from "../db/generated/client";
import { isoFromDb } from "../core/time";
import { env } from "../env";

import type { Role } from "./policy";
export type { Role };
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
  db: Tx,
  input: { workspaceId: string; userId?: string | null; kind?: "service" | "personal"; role?: Role; description?: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `tl_${env().REGION}_${randomBytes(24).toString("base64url")}`;
  const row = await db.apiKey.create({
    data: {
      id: randomUUID(),
      workspaceId: input.workspaceId,
      userId: input.userId ?? null,
      kind: input.kind ?? "service",
      role: input.role ?? "admin",
      description: input.description ?? "",
      prefix: key.slice(0, 10),
      hash: hashKey(key),
    },
  });
  return { key, record: toRecord(row) };
}

/** How these keys of the workspace are named (revoked ones too: what they did stays theirs). */
export async function apiKeyNames(
  db: Sql,
  workspaceId: string,
  ids: string[],
): Promise<{ id: string; description: string; prefix: string }[]> {
  if (ids.length === 0) return [];
  return db.prisma.apiKey.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, description: true, prefix: true } });
}

export async function listApiKeys(db: Sql, workspaceId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.prisma.apiKey.findMany({ where: { workspaceId, revokedAt: null }, orderBy: { createdAt: "desc" } });
  return rows.map(toRecord);
}

export async function revokeApiKey(db: Sql, workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db.prisma.apiKey.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}

/** Records use at most once a minute per key (called when a key is looked up, not on every request). */
export async function touchApiKey(db: Sql, id: string): Promise<void> {
  const now = new Date();
  await db.prisma.apiKey.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}

/** Finds the live key for a presented secret; the comparison of hashes is constant-time. */
export async function findApiKey(db: Sql, key: string): Promise<ApiKeyRecord | null> {
  const hash = hashKey(key);
  const row = await db.prisma.apiKey.findFirst({ where: { hash, revokedAt: null } });
  if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return null;
  return toRecord(row);
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    userId: row.userId,
    kind: row.kind as ApiKeyRecord["kind"],
    role: row.role as Role,
    description: row.description,
    prefix: row.prefix,
    createdAt: isoFromDb(row.createdAt)!,
    lastUsedAt: isoFromDb(row.lastUsedAt),
    revokedAt: isoFromDb(row.revokedAt),
  };
}
