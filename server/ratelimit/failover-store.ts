import type { MemoryCounterStore } from "./memory-store";
import type { RedisCounterStore } from "./redis-store";
import type { ConsumeResult, Counter, CounterStore } from "./store";

export type Warn = (message: string) => void;

/**
 * Redis first; while Redis is unreachable, this instance's memory counters (fail open per
 * instance rather than refusing all traffic or letting requests wait). A request never waits longer
 * than the Redis store's timeout, and an outage is logged once when it starts and once when it ends.
 */
export class FailoverCounterStore implements CounterStore {
  private down = false;

  constructor(
    private readonly primary: RedisCounterStore,
    private readonly fallback: MemoryCounterStore,
    private readonly warn: Warn = (message) => console.warn(message),
  ) {}

  /** True while requests are being counted in memory because Redis failed. */
  get degraded(): boolean {
    return this.down;
  }

  async consume(counters: readonly Counter[]): Promise<ConsumeResult> {
    if (this.down && !this.primary.ready) return this.fallback.consume(counters);
    try {
      // The Redis client bounds every command (queued while connecting included) by its timeout.
      const result = await this.primary.consume(counters);
      if (this.down) {
        this.down = false;
        this.warn("rate limits: Redis is reachable again; counting there.");
      }
      return result;
    } catch (error) {
      if (!this.down) {
        this.down = true;
        this.warn(`rate limits: Redis unavailable (${error instanceof Error ? error.message : String(error)}); counting in this instance's memory until it is back.`);
      }
      return this.fallback.consume(counters);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
