import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { createDataset, deleteDataset } from "../datasets/service";
import { createFromMultipart } from "../datasets/multipart";
import { resetEnv } from "../env";
import type { Part } from "../http/multipart";
import { ingestRuns } from "../ingest/service";
import { deleteSessions } from "../sessions/service";
import { getBlob } from "./store";
import { sweepBlobs } from "./sweep";

const key = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const bytes = (text: string) => Buffer.from(`${text} ${randomUUID()}`);

let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "tracelight-sweep-"));
  process.env.DATA_DIR = dataDir;
  process.env.BLOB_SWEEP_GRACE_SECONDS = "0";
  resetEnv();
});
after(async () => {
  delete process.env.BLOB_SWEEP_GRACE_SECONDS;
  resetEnv();
  await rm(dataDir, { recursive: true, force: true });
});

withTestDatabases("blob sweep", (open) => {
  let db: Sql;
  let ws: string;
  before(async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "sweep")).id;
  });

  const runWith = async (project: string, files: Record<string, Buffer>, id: string = randomUUID()) => {
    await ingestRuns(db, ws, {
      post: [{ id, name: "r", run_type: "chain", session_name: project, start_time: Date.now() }],
      attachments: Object.entries(files).map(([name, b]) => ({ runId: id, name, mimeType: "text/plain", content: b })),
    });
    return id;
  };
  const projectId = async (name: string) => (await db.prisma.project.findFirstOrThrow({ where: { workspaceId: ws, name } })).id;

  test("an object goes when the last run holding it goes, not before", async () => {
    const shared = bytes("shared");
    const own = bytes("own");
    await runWith("sweep-1", { a: shared, b: own });
    await runWith("sweep-2", { a: shared });
    assert.equal(await sweepBlobs(db), 0, "nothing was released yet");
    await deleteSessions(db, ws, [await projectId("sweep-1")]);
    assert.equal(await sweepBlobs(db), 1);
    assert.equal(await getBlob(key(own)), null, "the deleted project's own file is gone");
    assert.deepEqual(await getBlob(key(shared)), shared, "a file another run holds stays");
    await deleteSessions(db, ws, [await projectId("sweep-2")]);
    assert.equal(await sweepBlobs(db), 1);
    assert.equal(await getBlob(key(shared)), null);
  });

  test("a replaced attachment releases the old file", async () => {
    const first = bytes("first");
    const second = bytes("second");
    const id = await runWith("sweep-3", { doc: first });
    await runWith("sweep-3", { doc: second }, id);
    assert.equal(await sweepBlobs(db), 1);
    assert.equal(await getBlob(key(first)), null);
    assert.deepEqual(await getBlob(key(second)), second);
  });

  test("an example's file goes with its deleted dataset", async () => {
    const file = bytes("example file");
    const dataset = await createDataset(db, ws, { name: `files-${randomUUID()}` });
    const example = randomUUID();
    const part = (name: string, body: Buffer, contentType = "application/json"): Part => ({
      name,
      filename: "blob",
      contentType,
      headers: {},
      size: body.length,
      body,
    });
    await createFromMultipart(db, ws, dataset.id, [
      part(`${example}.inputs`, Buffer.from(JSON.stringify({ q: 1 }))),
      part(`${example}.attachment.file`, file, "text/plain"),
    ]);
    assert.equal(await sweepBlobs(db), 0);
    await deleteDataset(db, ws, dataset.id);
    assert.equal(await sweepBlobs(db), 1);
    assert.equal(await getBlob(key(file)), null);
  });

  test("a file put within the grace period stays, even with nothing holding it", async () => {
    const file = bytes("recent");
    await runWith("sweep-4", { f: file });
    await deleteSessions(db, ws, [await projectId("sweep-4")]);
    process.env.BLOB_SWEEP_GRACE_SECONDS = "3600";
    resetEnv();
    try {
      assert.equal(await sweepBlobs(db), 0);
      assert.deepEqual(await getBlob(key(file)), file);
    } finally {
      process.env.BLOB_SWEEP_GRACE_SECONDS = "0";
      resetEnv();
    }
    assert.equal(await sweepBlobs(db), 1);
  });
});
