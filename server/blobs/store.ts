import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";
import { publicUrl } from "../http/public-url";

/**
 * Attachment bytes live outside the database, content-addressed by SHA-256 under
 * DATA_DIR/blobs, so the same file sent twice is stored once.
 */
function blobPath(key: string): string {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`Invalid blob key ${key}`);
  return path.join(env().DATA_DIR, "blobs", key.slice(0, 2), key);
}

export async function putBlob(bytes: Buffer): Promise<string> {
  const key = createHash("sha256").update(bytes).digest("hex");
  const file = blobPath(key);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes, { flag: "w" });
  return key;
}

export async function getBlob(key: string): Promise<Buffer | null> {
  try {
    return await readFile(blobPath(key));
  } catch {
    return null;
  }
}

export async function deleteBlob(key: string): Promise<void> {
  await rm(blobPath(key), { force: true });
}

const sign = (payload: string) => createHmac("sha256", env().INTERNAL_SECRET).update(payload).digest("base64url");

/** An absolute link that serves one blob until it expires (the SDKs pass it straight to fetch()). */
export function signedBlobUrl(key: string, mimeType: string, ttlSeconds = 3600): string {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
  const payload = `${key}.${expires}.${mimeType}`;
  return publicUrl(`/api/v1/public/blobs/${key}?expires=${expires}&type=${encodeURIComponent(mimeType)}&sig=${sign(payload)}`);
}

export function verifyBlobSignature(key: string, expires: string, mimeType: string, signature: string): boolean {
  if (!/^\d+$/.test(expires) || Number(expires) < Date.now() / 1000) return false;
  const expected = Buffer.from(sign(`${key}.${expires}.${mimeType}`));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
