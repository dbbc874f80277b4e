import { env } from "../env";
import { createCounterStore, createRateLimiter, type RateLimitDecision, type RateLimiter } from "./limiter";
import type { CounterStore } from "./store";
import type { RateLimitRequest } from "./match";

export { createRateLimiter, type RateLimitDecision, type RateLimiter } from "./limiter";
export type { RateLimitRequest } from "./match";

const SINGLETON = Symbol.for("tracelight.rateLimiter");
const STORE = Symbol.for("tracelight.counterStore");

type Holder = typeof globalThis & {
  [SINGLETON]?: { check(req: RateLimitRequest): Promise<RateLimitDecision> };
  [STORE]?: CounterStore;
};

/**
 * The process's counters: in Redis when REDIS_URL is set (shared by every instance, in this
 * instance's memory while Redis is down), else in memory. Rate limits and sign-in lockout use it.
 */
export function counterStore(): CounterStore {
  const holder = globalThis as Holder;
  holder[STORE] ??= createCounterStore({ region: env().REGION, redisUrl: env().REDIS_URL || undefined });
  return holder[STORE];
}

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
      const limiter: RateLimiter = createRateLimiter({ region: config.REGION, store: counterStore() });
      holder[SINGLETON] = { check: (req) => limiter.check(req) };
    }
  }
  return holder[SINGLETON];
}
