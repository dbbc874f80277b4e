import { findApiKey, regionOfKey, touchApiKey, type ApiKeyRecord, type Role } from "./api-keys";
import type { Sql } from "../db/client";
import { env, regionBaseUrl } from "../env";
import { forbidden, unauthorized } from "../core/errors";
import { basicCredentials, credentialHeader } from "../core/headers";

export interface Identity {
  kind: "api_key" | "user";
  workspaceId: string;
  role: Role;
  apiKeyId?: string;
  userId?: string;
  /** The user part of HTTP Basic credentials (Langfuse's public key): names the project Langfuse clients write to. */
  publicKey?: string;
}

/** Revocation takes effect within this many milliseconds on every instance. */
const KEY_CACHE_MS = 5_000;
const keyCache = new Map<string, { record: ApiKeyRecord | null; until: number }>();

async function lookupKey(db: Sql, key: string): Promise<ApiKeyRecord | null> {
  const hit = keyCache.get(key);
  if (hit && hit.until > Date.now()) return hit.record;
  const record = await findApiKey(db, key);
  if (record) void touchApiKey(db, record.id).catch(() => undefined);
  if (keyCache.size > 10_000) keyCache.clear();
  keyCache.set(key, { record, until: Date.now() + KEY_CACHE_MS });
  return record;
}

export function forgetCachedKeys(): void {
  keyCache.clear();
}

function baseUrlOf(region: "us" | "eu"): string {
  return regionBaseUrl(region);
}

/** Identifies an API client by x-api-key. A key from the other region is told where to go. */
export async function apiKeyIdentity(db: Sql, key: string, tenantId: string | null): Promise<Identity> {
  const region = regionOfKey(key);
  if (region && region !== env().REGION) {
    throw unauthorized(
      `This API key belongs to the ${region.toUpperCase()} region; send it to ${baseUrlOf(region)} instead of the ${env().REGION.toUpperCase()} deployment.`,
    );
  }
  const record = await lookupKey(db, key);
  if (!record) throw unauthorized("Invalid API key: it does not exist or was revoked.");
  if (tenantId && tenantId !== record.workspaceId) {
    throw forbidden(`This API key belongs to workspace ${record.workspaceId}, not to the workspace in x-tenant-id (${tenantId}).`);
  }
  return { kind: "api_key", workspaceId: record.workspaceId, role: record.role, apiKeyId: record.id, userId: record.userId ?? undefined };
}

/**
 * Who is calling, for every request: an API key (`x-api-key`, with `x-tenant-id` to name its
 * workspace), else — on routes that take Langfuse's credentials (`basic`) — an API key as the
 * password of `Authorization: Basic` (Langfuse's SDKs send their secret key so; the user part is
 * kept as `publicKey`), else a signed-in user of the UI (session cookie and `x-user-id`,
 * server/auth/session.ts). Basic is read on those routes only: a deployment behind a proxy's own
 * Basic login forwards that header with every request. A header sent twice with the same value
 * (the Python SDK's key) is that value. Null when no credential is present.
 */
export async function requestIdentity(request: { headers: Headers }, db: Sql, options: { basic?: boolean } = {}): Promise<Identity | null> {
  const key = credentialHeader(request.headers, "x-api-key");
  if (key) return apiKeyIdentity(db, key, credentialHeader(request.headers, "x-tenant-id"));
  const basic = options.basic ? basicCredentials(request.headers) : null;
  if (basic) {
    const identity = await apiKeyIdentity(db, basic.password, credentialHeader(request.headers, "x-tenant-id"));
    return { ...identity, publicKey: basic.user };
  }
  const { userIdentity } = await import("./session");
  return userIdentity(request, db);
}
