/**
 * The caller's address as the Next.js server saw it: `next start` sets x-forwarded-for from the
 * socket, so the last hop is the one we trust.
 */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).pop();
  return last || request.headers.get("x-real-ip") || "unknown";
}
