import { AppError } from "../core/errors";
import { counterStore } from "../ratelimit";
import type { Connection } from "./types";

const MINUTE = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const counter = (c: Connection) => ({ key: `model-connection:${c.id}`, limit: c.requestsPerMinute!, windowMs: MINUTE });

/**
 * One call through a connection with a per-minute limit, counted in the rate limits' store (Redis
 * when configured, so the limit holds across instances). Over the limit: a 429 that says when to
 * come back. No limit set: always admitted.
 */
export async function admitCall(connection: Connection): Promise<void> {
  if (!connection.requestsPerMinute) return;
  const { allowed, states } = await counterStore().consume([counter(connection)]);
  if (allowed) return;
  const seconds = Math.ceil(states[0].resetMs / 1000);
  throw new AppError(
    429,
    `Model connection "${connection.name}" allows ${connection.requestsPerMinute} calls per minute: try again in ${seconds} s.`,
  );
}

/** The same limit for work that can wait (a dataset run): waits for the next window instead of refusing. */
export async function waitForCall(connection: Connection): Promise<void> {
  if (!connection.requestsPerMinute) return;
  for (;;) {
    const { allowed, states } = await counterStore().consume([counter(connection)]);
    if (allowed) return;
    await sleep(Math.max(50, states[0].resetMs));
  }
}
