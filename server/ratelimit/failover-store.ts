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

  consume(counters: readonly Counter[]): Promise<ConsumeResult> {
    return this.either((store) => store.consume(counters));
  }

  peek(key: string): Promise<number> {
    return this.either((store) => store.peek(key));
  }

  reset(key: string): Promise<void> {
    return this.either((store) => store.reset(key));
  }

  private async either<T>(call: (store: CounterStore) => Promise<T>): Promise<T> {
    if (this.down && !this.primary.ready) return call(this.fallback);
    try {
      // The Redis client bounds every command (queued while connecting included) by its timeout.
      const result = await call(this.primary);
      if (this.down) {
        this.down = false;
        this.warn("rate limits: Redis is reachable again; counting there.");
      }
      return result;
    } catch (error) {
      if (!this.down) {
        this.down = true;
        this.warn(
          `rate limits: Redis unavailable (${error instanceof Error ? error.message : String(error)}); counting in this instance's memory until it is back.`,
        );
      }
      return call(this.fallback);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
