import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { env } from "../env";

/**
 * Secrets we must use again later (a workspace's generation API key) are stored AES-256-GCM
 * encrypted, never in plain text. The key is derived from SECRET_KEY, else NEXTAUTH_SECRET, so
 * rotating that secret makes stored keys unreadable (they must then be set again).
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
function key(): Buffer {
  const secret = env().SECRET_KEY || env().NEXTAUTH_SECRET;
  return createHash("sha256").update(`tracelight:secret-box:v1:${secret}`).digest();
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plain text, or null when the value was not made with the current secret (or is damaged). */
export function decryptSecret(stored: string): string | null {
  const [version, iv, tag, data] = stored.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
