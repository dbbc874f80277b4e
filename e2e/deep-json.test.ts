/**
 * JSON nested 10,000 deep (issue 35) is a 400 naming the field wherever content is stored — feedback
 * values (with a key, through a presigned link), example inputs and outputs (JSON and multipart),
 * OTLP/JSON attributes — as runs already answer, never a 500 from a stack overflow.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { call } from "./harness/http";
import { multipartBody } from "./harness/multipart";
import { startServer, type RunningServer } from "./harness/server";

/** JSON text of `{"a": {"a": … 1 …}}`, `levels` deep (JSON.stringify would overflow building it). */
const deep = (levels: number) => '{"a": '.repeat(levels) + "1" + "}".repeat(levels);

describe("JSON nested 10,000 deep is a 400 naming the field", () => {
  let server: RunningServer;
  let client: Client;
  let runId: string;
  let datasetId: string;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    runId = randomUUID();
    await client.createRun({ id: runId, name: "deep", run_type: "chain", inputs: {}, project_name: "deep-json" });
    await client.awaitPendingTraceBatches();
    datasetId = (await client.createDataset(`deep-json-${randomUUID()}`)).id;
  });
  after(async () => server?.stop());

  async function post(path: string, body: string, method = "POST") {
    return call(server, method, path, body, { "content-type": "application/json" });
  }

  test("feedback value and correction, with a key and through a presigned link", async () => {
    const value = await post("/feedback", `{"run_id": "${runId}", "key": "k", "value": ${deep(10_000)}}`);
    assert.equal(value.status, 400, JSON.stringify(value.body));
    assert.match(value.body.detail, /value: nests deeper than 200 levels/);
    const correction = await post("/feedback", `{"run_id": "${runId}", "key": "k", "correction": ${deep(10_000)}}`);
    assert.equal(correction.status, 400);
    assert.match(correction.body.detail, /correction: nests deeper than 200 levels/);
    const made = await client.createFeedback(runId, "k", { score: 1 });
    const patched = await post(`/feedback/${made.id}`, `{"value": ${deep(10_000)}}`, "PATCH");
    assert.equal(patched.status, 400);
    assert.match(patched.body.detail, /value: nests deeper than 200 levels/);

    const token = await client.createPresignedFeedbackToken(runId, "link");
    const viaLink = await fetch(token.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"value": ${deep(10_000)}}`,
    });
    assert.equal(viaLink.status, 400);
    assert.match((await viaLink.json()).detail, /value: nests deeper than 200 levels/);
  });

  test("example inputs and outputs, as JSON and as multipart parts", async () => {
    const created = await post("/examples", `{"dataset_id": "${datasetId}", "inputs": {"q": ${deep(10_000)}}}`);
    assert.equal(created.status, 400, JSON.stringify(created.body));
    assert.match(created.body.detail, /inputs: nests deeper than 200 levels/);
    const bulk = await post("/examples/bulk", `[{"dataset_id": "${datasetId}", "inputs": {}, "outputs": {"a": ${deep(10_000)}}}]`);
    assert.equal(bulk.status, 400);
    assert.match(bulk.body.detail, /outputs: nests deeper than 200 levels/);
    const [example] = await client.createExamples({ datasetId, inputs: [{ q: 1 }], outputs: [{ a: 1 }] });
    const updated = await post(`/examples/${example!.id}`, `{"outputs": {"a": ${deep(10_000)}}}`, "PATCH");
    assert.equal(updated.status, 400);
    assert.match(updated.body.detail, /outputs: nests deeper than 200 levels/);

    const id = randomUUID();
    const { body, contentType } = multipartBody([
      { name: id, json: {} },
      { name: `${id}.inputs`, bytes: Buffer.from(`{"q": ${deep(10_000)}}`) },
    ]);
    const multipart = await fetch(`${server.url}/v1/platform/datasets/${datasetId}/examples`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": contentType },
      body: new Uint8Array(body),
    });
    assert.equal(multipart.status, 400);
    assert.match((await multipart.json()).detail, new RegExp(`${id}\\.inputs.*nests deeper than 200 levels`));
  });

  test("OTLP/JSON: a kvlistValue nested 10,000 deep", async () => {
    const kvlist = '{"kvlistValue": {"values": [{"key": "k", "value": '.repeat(10_000) + '{"stringValue": "x"}' + "}]}}".repeat(10_000);
    const span = `{"traceId": "5bf92f3577b34da6a3ce929d0e0e4736", "spanId": "6b6b000000000001", "name": "s", "startTimeUnixNano": "1763884800000000000", "attributes": [{"key": "deep", "value": ${kvlist}}]}`;
    const answer = await post("/otel/v1/traces", `{"resourceSpans": [{"scopeSpans": [{"spans": [${span}]}]}]}`);
    assert.equal(answer.status, 400);
    assert.match(answer.body.detail, /nests deeper than 816 levels/);
  });
});
