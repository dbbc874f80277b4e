import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../db/client";
import { migrate } from "../db/migrate";
import { resetEnv } from "../env";
import { blobs, blobUrl, deleteBlob, getBlob, putBlob, verifyBlobSignature } from "./store";
import { startTestS3, type TestS3 } from "./test-s3";

/** Runs `fn` with these settings in the environment, then restores it. */
async function withEnv<T>(settings: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(settings).map((k) => [k, process.env[k]]));
  Object.assign(process.env, settings);
  resetEnv();
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
  }
}

describe("blob store", () => {
  let s3: TestS3;
  let dataDir: string;
  let db: Database;
  before(async () => {
    s3 = await startTestS3();
    dataDir = await mkdtemp(path.join(tmpdir(), "tracelight-blobs-"));
    db = await openDatabase({ dataDir: "memory" });
    await migrate(db);
  });
  after(async () => {
    await db?.close();
    await s3?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const roundTrip = async () => {
    const bytes = Buffer.from(`attachment ${Math.random()}`);
    const key = await putBlob(db.sql, bytes);
    assert.equal(key, createHash("sha256").update(bytes).digest("hex"), "content-addressed");
    assert.equal(await putBlob(db.sql, bytes), key, "the same bytes are one blob");
    assert.deepEqual(await getBlob(key), bytes);
    await blobs().check();
    return { key, bytes };
  };

  test("S3-compatible storage: put, get, presigned links that serve the bytes safely, delete", async () => {
    await withEnv({ ...s3.env, DATA_DIR: dataDir }, async () => {
      const { key, bytes } = await roundTrip();
      const image = await fetch(await blobUrl(key, "image/png"));
      assert.equal(image.status, 200);
      assert.deepEqual(Buffer.from(await image.arrayBuffer()), bytes);
      assert.equal(image.headers.get("content-type"), "image/png");
      assert.equal(image.headers.get("content-disposition"), "inline");
      const page = await fetch(await blobUrl(key, "text/html"));
      assert.equal(page.headers.get("content-disposition"), "attachment", "markup downloads, never renders");
      assert.equal((await fetch(await blobUrl(key, "image/png", -10))).status, 403, "an expired link is refused");
      await deleteBlob(key);
      assert.equal(await getBlob(key), null);
    });
  });

  test("S3 that cannot be reached fails the readiness check", async () => {
    await withEnv({ ...s3.env, S3_BUCKET: "no-such-bucket" }, async () => {
      await assert.rejects(blobs().check());
    });
  });

  test("local storage: put, get, signed links of this server, delete", async () => {
    await withEnv({ DATA_DIR: dataDir }, async () => {
      const { key } = await roundTrip();
      const link = new URL(await blobUrl(key, "image/png"));
      assert.equal(link.pathname, `/api/v1/public/blobs/${key}`);
      const [expires, type, sig] = ["expires", "type", "sig"].map((p) => link.searchParams.get(p)!);
      assert.ok(verifyBlobSignature(key, expires, type, sig));
      assert.ok(!verifyBlobSignature(key, expires, "text/html", sig), "the type is signed");
      await deleteBlob(key);
      assert.equal(await getBlob(key), null);
    });
  });
});
