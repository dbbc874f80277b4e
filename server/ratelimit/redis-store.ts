import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import type { ConsumeResult, Counter, CounterStore } from "./store";

/**
 * All-or-nothing fixed-window consume in one round trip. KEYS are the counters; ARGV holds
 * limit and window (ms) for each. Reads every counter first and increments only when all have room,
 * so a refused request charges nothing. Returns {allowed, count1, ttl1, count2, ttl2, ...}.
 */
const CONSUME_SCRIPT = `
local n = #KEYS
local counts, ttls, allowed = {}, {}, 1
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  ttls[i] = redis.call('PTTL', KEYS[i])
  if counts[i] >= tonumber(ARGV[2 * i - 1]) then allowed = 0 end
end
if allowed == 1 then
  for i = 1, n do
    counts[i] = redis.call('INCR', KEYS[i])
    if counts[i] == 1 or ttls[i] < 0 then
      redis.call('PEXPIRE', KEYS[i], ARGV[2 * i])
      ttls[i] = tonumber(ARGV[2 * i])
    end
  end
end
local out = { allowed }
for i = 1, n do
  out[2 * i] = counts[i]
  out[2 * i + 1] = ttls[i]
end
return out
`;
const SCRIPT_SHA = createHash("sha1").update(CONSUME_SCRIPT).digest("hex");

export interface RedisStoreOptions {
  url: string;
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  keyPrefix: string;
  /** Bound on connecting and on each command; past it the caller falls back. */
  timeoutMs: number;
}

/** Counters in Redis, shared by every app instance pointed at it. */
export class RedisCounterStore implements CounterStore {
  readonly client: Redis;
  private readonly keyPrefix: string;

  constructor(options: RedisStoreOptions) {
    this.keyPrefix = options.keyPrefix;
    this.client = new Redis(options.url, {
      connectTimeout: options.timeoutMs,
      commandTimeout: options.timeoutMs,
      // Fail a command on the first failed connection attempt instead of queueing it for retries.
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      lazyConnect: false,
    });
    // Outages are reported by the failover store; without a listener ioredis prints every retry.
    this.client.on("error", () => undefined);
  }

  /** True while a connection is up; when false, commands would wait for a reconnect or fail. */
  get ready(): boolean {
    return this.client.status === "ready";
  }

  async consume(counters: readonly Counter[]): Promise<ConsumeResult> {
    const keys = counters.map((c) => this.keyPrefix + c.key);
    const args = counters.flatMap((c) => [String(c.limit), String(c.windowMs)]);
    let reply: unknown;
    try {
      reply = await this.client.evalsha(SCRIPT_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String(error).includes("NOSCRIPT")) throw error;
      reply = await this.client.eval(CONSUME_SCRIPT, keys.length, ...keys, ...args);
    }
    const values = (reply as unknown[]).map(Number);
    return {
      allowed: values[0] === 1,
      states: counters.map((c, i) => {
        const ttl = values[2 + 2 * i]!;
        return { count: values[1 + 2 * i]!, resetMs: ttl > 0 ? ttl : c.windowMs };
      }),
    };
  }

  async peek(key: string): Promise<number> {
    return Number((await this.client.get(this.keyPrefix + key)) ?? 0);
  }

  async reset(key: string): Promise<void> {
    await this.client.del(this.keyPrefix + key);
  }

  async close(): Promise<void> {
    if (this.client.status === "ready") await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }
}
