import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "./client";
import { EMBEDDED_SHARED_BUFFERS } from "./deadline";
import { sql } from "./sql";

test("embedded: the buffer pool is EMBEDDED_SHARED_BUFFERS (not initdb's 128MB), or what the server is told", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tl-embedded-"));
  try {
    for (const [sharedBuffers, expected] of [
      [undefined, EMBEDDED_SHARED_BUFFERS],
      ["16MB", "16MB"],
    ] as const) {
      const db = await openDatabase({ dataDir: dir, sharedBuffers });
      try {
        const [row] = await db.sql.query<{ shared_buffers: string }>(sql`SHOW shared_buffers`);
        assert.equal(row.shared_buffers, expected);
      } finally {
        await db.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
