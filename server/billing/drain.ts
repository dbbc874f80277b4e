import type { Sql } from "../db/client";
import { env } from "../env";
import { deliverToUs } from "./internal";
import { applyUsageDeltas } from "./ledger";
import { claimDue, markDelivered, markFailed, pruneDelivered, type ClaimedDelta } from "./outbox";
import type { UsageDelta } from "./schema";

export type Deliver = (deltas: UsageDelta[]) => Promise<void>;

export interface DrainOptions {
  batchSize?: number;
  /** How long a claimed batch is hidden from other instances while it is being delivered. */
  leaseMs?: number;
  /** First retry delay after a failed delivery; doubles per attempt up to capMs. */
  baseMs?: number;
  capMs?: number;
}

const strip = ({ attempts: _attempts, ...delta }: ClaimedDelta): UsageDelta => delta;

/**
 * Delivers due outbox rows batch by batch until none is due or a delivery fails. A failed batch is
 * retried later with exponential backoff; a row is marked delivered only after it was accepted.
 */
export async function drainOnce(
  db: Sql,
  deliver: Deliver,
  options: DrainOptions = {},
): Promise<{ delivered: number; failed: number; error?: string }> {
  const { batchSize = 500, leaseMs = 60_000, baseMs = 1_000, capMs = 300_000 } = options;
  let delivered = 0;
  for (;;) {
    const rows = await claimDue(db, batchSize, leaseMs);
    if (rows.length === 0) return { delivered, failed: 0 };
    try {
      await deliver(rows.map(strip));
    } catch (error) {
      const message = (error as Error).message;
      await markFailed(db, rows, message, baseMs, capMs);
      return { delivered, failed: rows.length, error: message };
    }
    await markDelivered(
      db,
      rows.map((r) => r.id),
    );
    delivered += rows.length;
    if (rows.length < batchSize) return { delivered, failed: 0 };
  }
}

/** Where this deployment's usage goes: counted locally in the US, POSTed to the US from the EU. */
export function deliveryFor(db: Sql): Deliver {
  return env().REGION === "us" ? async (deltas) => void (await applyUsageDeltas(db, "us", deltas)) : deliverToUs;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const KEEP_DELIVERED_MS = 7 * 24 * 60 * 60 * 1000;
const globalForDrain = globalThis as unknown as { tracelightBillingDrain?: boolean };

/** Starts the process's one background drain loop (every BILLING_FLUSH_MS). Failures are logged, never thrown. */
export function startBillingDrain(db: Sql): void {
  if (globalForDrain.tracelightBillingDrain) return;
  globalForDrain.tracelightBillingDrain = true;
  const every = env().BILLING_FLUSH_MS;
  const deliver = deliveryFor(db);
  const options: DrainOptions = { baseMs: every, capMs: Math.min(300_000, every * 30) };
  let lastPrune = 0;
  let lastError = "";
  const report = (message: string) => {
    if (message && message !== lastError) console.error(`billing: usage outbox not delivered yet (will retry): ${message}`);
    lastError = message;
  };
  const tick = async () => {
    try {
      report((await drainOnce(db, deliver, options)).error ?? "");
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await pruneDelivered(db, KEEP_DELIVERED_MS);
      }
    } catch (error) {
      report((error as Error).message);
    }
    setTimeout(tick, every).unref();
  };
  setTimeout(tick, every).unref();
}
