/**
 * The caller's address. scripts/serve.mjs resolves it from the socket (and from X-Forwarded-For only
 * when the socket's peer is one of TRUSTED_PROXIES) and hands the app exactly that one address in
 * X-Forwarded-For, so whatever a caller puts in the header itself is never believed.
 */
export function clientIp(headers: Headers | Record<string, unknown> | undefined): string {
  const value = headers instanceof Headers ? headers.get("x-forwarded-for") : headers?.["x-forwarded-for"];
  return typeof value === "string" && value.trim() ? value.trim() : "unknown";
}
