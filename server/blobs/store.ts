import { createHash } from "node:crypto";
import type { Sql } from "../db/client";
import type { SpooledFile } from "../http/multipart";
import { sql } from "../db/sql";
import { env } from "../env";
import { localBackend } from "./local";

export { verifyBlobSignature } from "./local";

/**
 * Attachment and example-file bytes live outside the database, content-addressed by SHA-256, so
 * the same file sent twice is stored once: in an S3-compatible bucket when S3_BUCKET is set
 * (s3.ts), else under DATA_DIR/blobs (local.ts).
 */
/** What is stored: bytes in memory, or a file an upload was streamed to (with its size and SHA-256). */
export type BlobContent = Buffer | SpooledFile;

export interface BlobBackend {
  /** Stores the content under its key; a file is streamed (or linked), never read whole into memory. */
  put(key: string, content: BlobContent): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** An absolute link that serves the blob until it expires (the SDKs pass it straight to fetch()). */
  url(key: string, mimeType: string, ttlSeconds: number): Promise<string>;
  /** Throws when the store cannot be reached or written (for /readyz). */
  check(): Promise<void>;
}

/**
 * The S3 backend, loaded on first use: the AWS SDK is tens of megabytes of code that a server
 * storing blobs on disk never needs in memory.
 */
function lazyS3(): BlobBackend {
  const backend = import("./s3").then((m) => m.s3Backend());
  backend.catch(() => undefined); // a misconfiguration is reported by the first call that uses it
  return {
    put: async (key, content) => (await backend).put(key, content),
    get: async (key) => (await backend).get(key),
    delete: async (key) => (await backend).delete(key),
    url: async (key, mimeType, ttlSeconds) => (await backend).url(key, mimeType, ttlSeconds),
    check: async () => (await backend).check(),
  };
}

const state = globalThis as unknown as { tracelightBlobs?: { bucket: string | undefined; backend: BlobBackend } };

/** The process's blob store, as configured (made again when tests change the configuration). */
export function blobs(): BlobBackend {
  const bucket = env().S3_BUCKET;
  if (!state.tracelightBlobs || state.tracelightBlobs.bucket !== bucket)
    state.tracelightBlobs = { bucket, backend: bucket ? lazyS3() : localBackend() };
  return state.tracelightBlobs.backend;
}

function checkedKey(key: string): string {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`Invalid blob key ${key}`);
  return key;
}

/**
 * Stores the bytes, once per content. The key's `put_at` is stamped first, through `db` (inside the
 * transaction that records the row holding it, when there is one): the sweep leaves a key put within
 * its grace period alone, and waits for that transaction when it holds the key's row.
 */
export async function putBlob(db: Sql, content: BlobContent): Promise<string> {
  const key = Buffer.isBuffer(content) ? createHash("sha256").update(content).digest("hex") : content.sha256;
  await db.query(sql`INSERT INTO blob_keys (blob_key) VALUES (${key}) ON CONFLICT (blob_key) DO UPDATE SET put_at = now()`);
  await blobs().put(key, content);
  return key;
}

export const blobSize = (content: BlobContent): number => (Buffer.isBuffer(content) ? content.length : content.size);

export const getBlob = (key: string) => blobs().get(checkedKey(key));
export const deleteBlob = (key: string) => blobs().delete(checkedKey(key));
export const blobUrl = (key: string, mimeType: string, ttlSeconds = 3600) => blobs().url(checkedKey(key), mimeType, ttlSeconds);
