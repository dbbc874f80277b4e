/** One counter a request must pass: a fixed window of `windowMs` that admits `limit` requests. */
export interface Counter {
  key: string;
  limit: number;
  windowMs: number;
}

export interface CounterState {
  /** Requests counted in the current window, this one included when it was admitted. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number;
}

export interface ConsumeResult {
  /** True when every counter had room; only then were all of them incremented. */
  allowed: boolean;
  /** One state per counter, in the order given. */
  states: CounterState[];
}

/**
 * Where counters live. `consume` is all-or-nothing: a request refused by one counter is not
 * charged to the others, so a client held back by a tight row keeps its budget elsewhere.
 */
export interface CounterStore {
  consume(counters: readonly Counter[]): Promise<ConsumeResult>;
  /** The count in `key`'s current window, without charging it (0 when no window is open). */
  peek(key: string): Promise<number>;
  /** Ends `key`'s window: the next consume starts from zero. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}
