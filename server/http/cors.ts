/**
 * Browser apps may call the API directly (the JS SDK runs in browsers too), so every API answer
 * allows any origin; credentials are headers (x-api-key), never cookies, for cross-origin callers.
 */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-expose-headers": "Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset",
  "access-control-max-age": "600",
};
