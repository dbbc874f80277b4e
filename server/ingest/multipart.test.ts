import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { readMultipart } from "../http/multipart";
import { readRun } from "../runs/read";
import { readMultipartIngest } from "./multipart";
import { ingestBatch } from "./service";

/** A multipart body in the SDKs' layout, each part's text as given. */
function body(parts: [name: string, text: string][]): { bytes: Buffer; boundary: string } {
  const boundary = `b${randomUUID()}`;
  const text = parts
    .map(([name, t]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json\r\n\r\n${t}\r\n`)
    .join("");
  return { bytes: Buffer.from(`${text}--${boundary}--\r\n`), boundary };
}

withTestDatabases("multipart ingest", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "multipart tests")).id;
  });

  test("inputs and outputs parts are stored as sent, whatever they spell, spliced or serialised anew", async () => {
    const id = randomUUID();
    const inputs = '{ "n": 1.50, "s": "caf\\u00e9 😀", "list": [1, {"deep": [true, null]}] }';
    const outputs = '{"nul": "a\\u0000b", "private": "\ue000 \\ue000", "lone": "\\ud800", "pair": "\\ud83d\\ude00", "key\\u0000": 1}';
    const { bytes, boundary } = body([
      [`post.${id}`, JSON.stringify({ name: "parts", run_type: "chain", start_time: "2024-05-01T12:00:00Z" })],
      [`post.${id}.inputs`, inputs],
      [`post.${id}.outputs`, outputs],
      [`post.${id}.serialized`, "[Unserializable]"],
    ]);
    const input = await readMultipartIngest(await readMultipart([bytes], boundary, "/tmp"));
    const result = await ingestBatch(db, ws, input);
    assert.deepEqual(result, { created: 1, updated: 0, rejected: [] });
    const run = (await readRun(db, ws, id))!;
    assert.deepEqual(run.inputs, JSON.parse(inputs));
    assert.deepEqual(run.outputs, JSON.parse(outputs));
    assert.equal(run.serialized, "[Unserializable]");
    // The spliced text keeps the digits it was sent with.
    const [row] = await db.query<{ n: string }>(sql`SELECT inputs->>'n' AS n FROM runs WHERE id = ${id}`);
    assert.equal(row.n, "1.50");
  });

  test("a post and a patch of one run in one request: the patch's outputs win, the post's inputs stay", async () => {
    const id = randomUUID();
    const { bytes, boundary } = body([
      [`post.${id}`, JSON.stringify({ name: "folded", run_type: "llm", start_time: "2024-05-01T12:00:00Z" })],
      [`post.${id}.inputs`, '{"messages": [{"role": "user", "content": "hi"}]}'],
      [`post.${id}.outputs`, '{"text": "first"}'],
      [`patch.${id}`, JSON.stringify({ end_time: "2024-05-01T12:00:01Z" })],
      [`patch.${id}.outputs`, '{"text": "second", "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}'],
    ]);
    await ingestBatch(db, ws, await readMultipartIngest(await readMultipart([bytes], boundary, "/tmp")));
    const run = (await readRun(db, ws, id))!;
    assert.deepEqual(run.inputs, { messages: [{ role: "user", content: "hi" }] });
    assert.deepEqual(run.outputs, { text: "second", usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    assert.equal(run.total_tokens, 5);
    assert.equal(run.status, "success");
  });
});
