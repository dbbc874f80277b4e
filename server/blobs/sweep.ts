import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { env } from "../env";
import { onEvery } from "../jobs/queue";
import { deleteBlob } from "./store";

const BATCH = 100;

/**
 * Deletes from the blob store the objects no row holds any more (their runs, projects, examples or
 * datasets were deleted, or an attachment was replaced), in batches of keys locked for the check:
 * an object put within BLOB_SWEEP_GRACE_SECONDS is left for later, one still held is kept.
 * Answers how many objects were deleted. Safe on several workers at once (SKIP LOCKED).
 */
export async function sweepBlobs(db: Sql): Promise<number> {
  const grace = env().BLOB_SWEEP_GRACE_SECONDS;
  let deleted = 0;
  for (;;) {
    const swept = await db.tx(async (t) => {
      const keys = (
        await t.query<{ blob_key: string }>(sql`
          SELECT blob_key FROM blob_keys
          WHERE orphaned_since IS NOT NULL AND put_at <= now() - make_interval(secs => ${grace})
          ORDER BY orphaned_since LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`)
      ).map((r) => r.blob_key);
      if (keys.length === 0) return null;
      const held = new Set(
        (
          await t.query<{ blob_key: string }>(sql`
            SELECT blob_key FROM attachments WHERE blob_key = ANY(${keys}::text[])
            UNION
            SELECT f.value ->> 'blob_key' FROM example_versions v, jsonb_each(v.attachments) f
            WHERE f.value ->> 'blob_key' = ANY(${keys}::text[])`)
        ).map((r) => r.blob_key),
      );
      const free = keys.filter((key) => !held.has(key));
      for (const key of free) await deleteBlob(key);
      await t.query(sql`DELETE FROM blob_keys WHERE blob_key = ANY(${free}::text[])`);
      await t.query(sql`UPDATE blob_keys SET orphaned_since = NULL WHERE blob_key = ANY(${[...held]}::text[])`);
      return free.length;
    });
    if (swept === null) return deleted;
    deleted += swept;
  }
}

onEvery(
  "blob-sweep",
  () => 60,
  async (db) => void (await sweepBlobs(db)),
);
