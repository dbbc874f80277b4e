import { basicCredentials, limiterKey } from "../core/headers";
import { rateLimiter } from "../ratelimit";

/**
 * Runs `next` inside the rate limiter, keyed on the caller's x-api-key (on Langfuse's `/api/public`
 * routes also the secret key of `Authorization: Basic`, which elsewhere may be a proxy's own login
 * shared by every user) / x-user-id headers and IP
 * as the contract's table says (before any credential lookup, so guessing keys is limited too).
 * Refused requests get a 429; admitted ones carry the X-RateLimit-* headers of the tightest limit.
 */
export async function withRateLimit(request: Request, ip: string, next: () => Promise<Response>): Promise<Response> {
  const path = new URL(request.url).pathname;
  const decision = await rateLimiter().check({
    method: request.method,
    path,
    apiKey: limiterKey(request.headers, "x-api-key") ?? (path.startsWith("/api/public/") ? basicSecret(request.headers) : undefined),
    userId: limiterKey(request.headers, "x-user-id"),
    ip,
  });
  if (!decision.allowed) {
    return Response.json({ detail: decision.detail ?? "Rate limit exceeded" }, { status: 429, headers: decision.headers });
  }
  const response = await next();
  for (const [name, value] of Object.entries(decision.headers)) response.headers.set(name, value);
  return response;
}

/** A malformed Basic header is refused by identity resolution; here it only means "no key". */
function basicSecret(headers: Headers): string | undefined {
  try {
    return basicCredentials(headers)?.password;
  } catch {
    return undefined;
  }
}
