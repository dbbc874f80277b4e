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
  const waitMs = await tryAdmit(connection);
  if (waitMs === null) return;
  const seconds = Math.ceil(waitMs / 1000);
  throw new AppError(
    429,
    `Model connection "${connection.name}" allows ${connection.requestsPerMinute} calls per minute: try again in ${seconds} s.`,
  );
}

/** Counts one call if the connection's limit allows it (null), else answers how long until the next window (ms). */
export async function tryAdmit(connection: Connection): Promise<number | null> {
  if (!connection.requestsPerMinute) return null;
  const { allowed, states } = await counterStore().consume([counter(connection)]);
  return allowed ? null : states[0].resetMs;
}

/** The same limit for work that can wait (a dataset run): waits for the next window instead of refusing. */
export async function waitForCall(connection: Connection): Promise<void> {
  for (let waitMs = await tryAdmit(connection); waitMs !== null; waitMs = await tryAdmit(connection)) await sleep(Math.max(50, waitMs));
}
