import { env } from "../env";
import { createRateLimiter, type RateLimitDecision, type RateLimiter } from "./limiter";
import type { RateLimitRequest } from "./match";

export { createRateLimiter, type RateLimitDecision, type RateLimiter, type RateLimiterOptions } from "./limiter";
export type { RateLimitRequest } from "./match";

const SINGLETON = Symbol.for("tracelight.rateLimiter");

type Holder = typeof globalThis & { [SINGLETON]?: { check(req: RateLimitRequest): Promise<RateLimitDecision> } };

/**
 * The process's limiter, configured from the environment: REGION's numbers, Redis when REDIS_URL
 * is set, and RATE_LIMITS=off admitting everything without headers. Kept on globalThis so Next.js
 * module reloading never creates a second set of counters or Redis connections.
 */
export function rateLimiter(): { check(req: RateLimitRequest): Promise<RateLimitDecision> } {
  const holder = globalThis as Holder;
  if (!holder[SINGLETON]) {
    const config = env();
    if (!config.RATE_LIMITS) {
      holder[SINGLETON] = { check: async () => ({ allowed: true, headers: {} }) };
    } else {
      const limiter: RateLimiter = createRateLimiter({ region: config.REGION, redisUrl: config.REDIS_URL || undefined });
      holder[SINGLETON] = { check: (req) => limiter.check(req) };
    }
  }
  return holder[SINGLETON];
}
