import { z } from "zod";
import { unauthorized } from "./errors";

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "must be a valid HTTP header name");
const headerValue = z
  .string()
  .max(4096)
  .regex(/^[^\r\n]*$/, "must not contain line breaks");

/** Extra HTTP headers a caller asks us to send (webhooks, model connections): valid names, one-line values. */
export const extraHeaders = z.record(headerName, headerValue);

/**
 * The distinct values of a header that may arrive more than once. Fetch's `Headers` joins repeats
 * into one "a, b" string (the Python SDK sends its key as both `X-API-Key` and `x-api-key`, so a
 * key arrives as "k, k"). Credentials and ids never contain commas, so the split is exact for them.
 */
function distinctValues(headers: Headers, name: string): string[] {
  const value = headers.get(name);
  if (value === null) return [];
  return [...new Set(value.split(",").map((v) => v.trim()))].filter(Boolean);
}

/**
 * A credential or id header's one value (x-api-key, x-tenant-id, x-user-id), or null when absent
 * or empty. Repeats of the same value are that value; different values are ambiguous, a 401.
 */
export function credentialHeader(headers: Headers, name: string): string | null {
  const values = distinctValues(headers, name);
  if (values.length > 1) throw unauthorized(`The ${name} header was sent ${values.length} times with different values; send one.`);
  return values[0] ?? null;
}

/** The same header as a rate-limit key: its one value, or the whole header when the copies differ (refused later). */
export function limiterKey(headers: Headers, name: string): string | undefined {
  const values = distinctValues(headers, name);
  return values.length > 1 ? values.join(",") : values[0];
}

/**
 * The credentials of `Authorization: Basic base64(user:password)` (Langfuse's SDKs send their public
 * key as the user and their secret key as the password), or null when the header is not Basic.
 * A Basic header that does not decode to `user:password` is a 401 saying so.
 */
export function basicCredentials(headers: Headers): { user: string; password: string } | null {
  const value = headers.get("authorization");
  const match = value === null ? null : /^Basic\s+(\S*)\s*$/i.exec(value);
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || colon === decoded.length - 1) {
    throw unauthorized(
      "The Authorization: Basic header must carry base64(public_key:secret_key) with a secret key (a Tracelight API key).",
    );
  }
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
