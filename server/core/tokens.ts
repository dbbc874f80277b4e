import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from "node:crypto";
import { env } from "../env";

/**
 * Public link tokens. Lookups go through the SHA-256 of a token, so a database leak does not hand
 * out working links; the token is also sealed with AES-256-GCM under the deployment secret so
 * the owner can be shown an existing link again.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Share links are random UUIDs (122 bits from the CSPRNG): the langsmith SDK checks that a share
 * token is a UUID before it calls `/public/{token}/...`.
 */
export function newShareToken(): string {
  return randomUUID();
}

/**
 * Feedback links are a UUID too: the Python client's create_feedback_from_token(url) takes the
 * link's last path segment and refuses it unless it is a UUID (issue 36). Links made before, 32
 * random bytes in base64url, still work.
 */
export function newLinkToken(): string {
  return randomUUID();
}

function sealingKey(): Buffer {
  return createHash("sha256").update(`tracelight-token-seal:${env().INTERNAL_SECRET}`).digest();
}

export function sealToken(token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(), iv);
  const body = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function unsealToken(sealed: string): string {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
