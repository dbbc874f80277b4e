import type { ConsumeResult, Counter, CounterStore } from "./store";

interface Window {
  count: number;
  endsAt: number;
}

export interface MemoryStoreOptions {
  now?: () => number;
  /** Most live windows kept; past it the oldest are dropped (those callers start a fresh window). */
  maxEntries?: number;
  /** How often, in clock milliseconds, ended windows are swept out. */
  sweepEveryMs?: number;
}

/**
 * Counters in this process's memory (the embedded mode, and the fallback while Redis is unreachable).
 * Memory stays bounded: ended windows are swept on a clock schedule, and the map never grows past
 * `maxEntries`. No timers, so an idle process is not kept alive.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly sweepEveryMs: number;
  private nextSweepAt: number;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 10_000;
    this.nextSweepAt = this.now() + this.sweepEveryMs;
  }

  /** Live windows held, for tests and diagnostics. */
  get size(): number {
    return this.windows.size;
  }

  async consume(counters: readonly Counter[]): Promise<ConsumeResult> {
    const now = this.now();
    if (now >= this.nextSweepAt || this.windows.size >= this.maxEntries) this.sweep(now);
    const current = counters.map((c) => {
      const window = this.windows.get(c.key);
      return window && window.endsAt > now ? window : undefined;
    });
    const allowed = counters.every((c, i) => (current[i]?.count ?? 0) < c.limit);
    if (!allowed) {
      return {
        allowed,
        states: counters.map((c, i) => ({ count: current[i]?.count ?? 0, resetMs: current[i] ? current[i].endsAt - now : c.windowMs })),
      };
    }
    const states = counters.map((c, i) => {
      let window = current[i];
      if (!window) {
        // Re-inserting keeps the map ordered by window start, so trimming drops the oldest first.
        this.windows.delete(c.key);
        window = { count: 0, endsAt: now + c.windowMs };
        this.windows.set(c.key, window);
      }
      window.count += 1;
      return { count: window.count, resetMs: window.endsAt - now };
    });
    return { allowed, states };
  }

  async peek(key: string): Promise<number> {
    const window = this.windows.get(key);
    return window && window.endsAt > this.now() ? window.count : 0;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + this.sweepEveryMs;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    const excess = this.windows.size - Math.floor(this.maxEntries * 0.9);
    if (this.windows.size < this.maxEntries || excess <= 0) return;
    let dropped = 0;
    for (const key of this.windows.keys()) {
      if (dropped++ >= excess) break;
      this.windows.delete(key);
    }
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
