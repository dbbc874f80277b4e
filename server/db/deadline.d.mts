// Types of deadline.mjs (plain JavaScript, so the embedded database's worker thread loads it as it is).
import type { PGlite, Transaction } from "@electric-sql/pglite";

export declare const EMBEDDED_SHARED_BUFFERS: string;

export declare function openCancellable(
  dataDir: string,
  parsers: Record<number, (value: string) => unknown>,
  sharedBuffers?: string,
): Promise<PGlite>;

export declare function boundedTransaction<T>(pglite: PGlite, ms: number, fn: (tx: Transaction) => Promise<T>): Promise<T>;
