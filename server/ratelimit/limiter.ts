import { createHash } from "node:crypto";
import { FailoverCounterStore, type Warn } from "./failover-store";
import { applicableRows, type AppliedRow, type RateLimitRequest } from "./match";
import { MemoryCounterStore } from "./memory-store";
import { RedisCounterStore } from "./redis-store";
import type { CounterState, CounterStore } from "./store";
import type { LimitRow, Region } from "./rows";

export interface RateLimitDecision {
  allowed: boolean;
  headers: Record<string, string>;
  detail?: string;
  retryAfterSeconds?: number;
}

export interface RateLimiter {
  check(req: RateLimitRequest): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  region: Region;
  redisUrl?: string;
  /** Clock for the in-memory counters (Redis keeps its own time). */
  now?: () => number;
  /** Prefix of every Redis key (default `tracelight:rl:<region>:`); tests give each run its own. */
  keyPrefix?: string;
  /** Bound on a Redis connect or round trip before falling back to memory. */
  redisTimeoutMs?: number;
  warn?: Warn;
  /** Counters shared with other users of the process's store (else made from the options above). */
  store?: CounterStore;
}

/**
 * A counter's key: the row and a digest of the identity, so API keys (and user ids and IPs) are
 * never stored or sent to Redis as they are.
 */
export function counterKey(applied: AppliedRow): string {
  const digest = createHash("sha256").update(`${applied.row.identity}\n${applied.identityValue}`).digest("base64url").slice(0, 22);
  return `${applied.row.id}:${digest}`;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function headersOf(limit: number, remaining: number, resetMs: number): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(Math.max(0, remaining)),
    "X-RateLimit-Reset": String(seconds(resetMs)),
  };
}

interface Counted {
  row: LimitRow;
  limit: number;
  windowSeconds: number;
  state: CounterState;
}

/**
 * Admitted: headers of the row with the fewest requests left (ties: the later reset). Refused: the
 * refusing row whose window ends last, since the request passes only once every refusing row has room.
 */
export function decide(allowed: boolean, counted: readonly Counted[]): RateLimitDecision {
  if (allowed) {
    const tightest = counted.reduce((a, b) => {
      const left = (c: Counted) => c.limit - c.state.count;
      return left(b) < left(a) || (left(b) === left(a) && b.state.resetMs > a.state.resetMs) ? b : a;
    });
    return { allowed, headers: headersOf(tightest.limit, tightest.limit - tightest.state.count, tightest.state.resetMs) };
  }
  const refusing = counted.filter((c) => c.state.count >= c.limit);
  const worst = refusing.reduce((a, b) => (b.state.resetMs > a.state.resetMs ? b : a));
  const retryAfterSeconds = seconds(worst.state.resetMs);
  return {
    allowed,
    retryAfterSeconds,
    headers: { ...headersOf(worst.limit, 0, worst.state.resetMs), "Retry-After": String(retryAfterSeconds) },
    detail: `Rate limit exceeded for ${worst.row.category}: ${worst.limit} requests per ${worst.windowSeconds} seconds. Retry after ${retryAfterSeconds} s.`,
  };
}

/** Counters in Redis (falling back to memory while it is unreachable) when a URL is given, else in memory. */
export function createCounterStore(options: Omit<RateLimiterOptions, "store">): CounterStore {
  const memory = new MemoryCounterStore({ now: options.now });
  if (!options.redisUrl) return memory;
  const redis = new RedisCounterStore({
    url: options.redisUrl,
    keyPrefix: options.keyPrefix ?? `tracelight:rl:${options.region}:`,
    timeoutMs: options.redisTimeoutMs ?? 500,
  });
  return new FailoverCounterStore(redis, memory, options.warn);
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const store = options.store ?? createCounterStore(options);

  return {
    async check(req) {
      const applied = applicableRows(req);
      if (applied.length === 0) return { allowed: true, headers: {} };
      const limits = applied.map((a) => a.row.limits[options.region]);
      const result = await store.consume(
        applied.map((a, i) => ({ key: counterKey(a), limit: limits[i]!.count, windowMs: limits[i]!.windowSeconds * 1000 })),
      );
      return decide(
        result.allowed,
        applied.map((a, i) => ({ row: a.row, limit: limits[i]!.count, windowSeconds: limits[i]!.windowSeconds, state: result.states[i]! })),
      );
    },
    close: () => store.close(),
  };
}
