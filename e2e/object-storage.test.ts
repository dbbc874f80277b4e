/**
 * Attachments and example files in S3-compatible object storage: a server started with S3_* settings
 * pointing at a local S3 server (s3rver, started here) stores what the real client uploads there,
 * and the links the client reads are presigned GETs of that server that serve the same bytes.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client, RunTree } from "langsmith";
import { startTestS3, type TestS3 } from "../server/blobs/test-s3";
import { attachmentLink, collect } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("object storage", () => {
  let s3: TestS3;
  let server: RunningServer;
  let client: Client;
  before(async () => {
    s3 = await startTestS3();
    server = await startServer({ env: s3.env });
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => {
    await server?.stop();
    await s3?.close();
  });

  test("a run's attachment goes to the bucket; s3_urls are presigned links of the bucket", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 8, 7]);
    const run = new RunTree({
      name: "with-file",
      run_type: "chain",
      inputs: { q: 1 },
      client,
      attachments: { picture: ["image/png", png] } as never,
    });
    await run.postRun();
    await run.end({ ok: true });
    await run.patchRun();
    await client.awaitPendingTraceBatches();
    const link = await attachmentLink(client, run.id, "picture");
    assert.ok(link.presigned_url.startsWith(`${s3.env.S3_ENDPOINT}/${s3.env.S3_BUCKET}/`), link.presigned_url);
    assert.match(link.presigned_url, /X-Amz-Signature=/);
    const download = await fetch(link.presigned_url);
    assert.equal(download.status, 200);
    assert.deepEqual(new Uint8Array(await download.arrayBuffer()), png);
    assert.equal(download.headers.get("content-type"), "image/png");
  });

  test("an example's file goes to the bucket and is read back through the client", async () => {
    const dataset = await client.createDataset(`files-${Date.now()}`);
    const text = new TextEncoder().encode("<script>alert(1)</script>");
    await client.uploadExamplesMultipart(dataset.id, [{ inputs: { q: "x" }, attachments: { page: ["text/html", text] } }]);
    const [listed] = await collect(client.listExamples({ datasetId: dataset.id, includeAttachments: true }));
    const example = await client.readExample(listed!.id);
    const link = example.attachments!.page.presigned_url;
    assert.ok(link.startsWith(`${s3.env.S3_ENDPOINT}/`), link);
    const download = await fetch(link);
    assert.equal(await download.text(), "<script>alert(1)</script>", "stored as sent");
    assert.equal(download.headers.get("content-disposition"), "attachment", "markup downloads, never renders");
  });

  test("/readyz checks the bucket", async () => {
    assert.deepEqual((await (await fetch(`${server.url}/readyz`)).json()).checks.blobs, "ok");
  });
});
