/**
 * Large attachments stream: a 48 MiB file sent by the real client goes from the socket to a file
 * and on to the blob store (local files, or an S3 bucket) without ever being whole in the server's
 * memory — its resident set grows by a small fraction of the file — and reads back byte for byte.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { Client, RunTree } from "langsmith";
import { startTestS3, type TestS3 } from "../server/blobs/test-s3";
import { attachmentLink } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const MiB = 1024 * 1024;
const statusMiB = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
/** Starts measuring the process's peak resident memory afresh (Linux: "5" to clear_refs resets VmHWM). */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, "5");
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

for (const store of ["local files", "an S3 bucket"] as const) {
  // Storage, not the database: once, in the embedded pass.
  describe(
    `a large attachment streams to ${store}`,
    { skip: process.env.E2E_DATABASE_URL ? "covered by the embedded pass" : false },
    () => {
      let s3: TestS3 | undefined;
      let server: RunningServer;
      let client: Client;
      before(async () => {
        s3 = store === "an S3 bucket" ? await startTestS3() : undefined;
        server = await startServer({ env: { ...s3?.env, MAX_BODY_BYTES: String(128 * MiB), MAX_DECOMPRESSED_BYTES: String(128 * MiB) } });
        client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
      });
      after(async () => {
        await server?.stop();
        await s3?.close();
      });

      test("48 MiB through the SDK: the server's peak memory grows by far less than the file, and the link serves the same bytes", async () => {
        const warmUp = new RunTree({
          name: "warm-up",
          run_type: "chain",
          inputs: {},
          client,
          attachments: { f: ["text/plain", new Uint8Array(8)] } as never,
        });
        await warmUp.postRun();
        await client.awaitPendingTraceBatches();
        const file = randomBytes(48 * MiB);
        const upload = async () => {
          const before = statusMiB(server.pid, "VmRSS");
          resetPeak(server.pid);
          const run = new RunTree({
            name: "big-file",
            run_type: "chain",
            inputs: { q: 1 },
            client,
            attachments: { video: ["video/mp4", file] } as never,
          });
          await run.postRun();
          await client.awaitPendingTraceBatches();
          return { run, grown: statusMiB(server.pid, "VmHWM") - before };
        };
        // The peak is the whole process's (the embedded database and background jobs too): a spike of
        // other work during one upload is told apart from the file held in memory, which every upload would show.
        let { run, grown } = await upload();
        if (grown >= 16) ({ run, grown } = await upload());
        const link = await attachmentLink(client, run.id, "video");
        console.log(`server's peak resident memory grew ${grown.toFixed(1)} MiB during a 48 MiB attachment (${store})`);
        assert.ok(grown < 16, `the server grew ${grown.toFixed(1)} MiB: the file was held in memory`);
        const download = new Uint8Array(await (await fetch(link.presigned_url)).arrayBuffer());
        assert.equal(download.length, file.length);
        assert.equal(sha256(download), sha256(file));
      });
    },
  );
}
