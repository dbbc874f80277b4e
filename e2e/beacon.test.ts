import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { startServer, type RunningServer } from "./harness/server";

describe("beacon and metadata submit (public, no key)", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server?.stop());

  const send = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const usage = {
    license: "e2e-license",
    from_timestamp: "2025-01-06T09:00:00Z",
    to_timestamp: "2025-01-06T10:00:00Z",
    tags: { "langgraph_api.version": "0.2.0" },
    measures: { "langgraph.platform.runs": 150 },
    logs: [],
  };

  test("metadata submit answers 202 with an id at every prefix the contract allows", async () => {
    for (const path of ["/v1/metadata/submit", "/api/v1/metadata/submit", "/anything/v1/metadata/submit"]) {
      const r = await send(path, usage);
      assert.equal(r.status, 202, `${path}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.id, /^[0-9a-f-]{36}$/);
      assert.equal(r.body.kind, "metadata");
    }
    const gz = await send("/v1/metadata/submit", gzipSync(JSON.stringify(usage)), { "content-encoding": "gzip" });
    assert.equal(gz.status, 202);
  });

  test("beacon answers 202; trace counts and license checks are accepted", async () => {
    const verify = await send("/v1/beacon", { license: "e2e-license", event: "verify" });
    assert.equal(verify.status, 202);
    assert.equal(verify.body.kind, "beacon:verify");
    const traces = await send("/v1/beacon", { license: "e2e-license", event: "ingest-traces", trace_transactions: [{ trace_count: 5 }] });
    assert.equal(traces.status, 202);
    assert.notEqual(traces.body.id, verify.body.id);
  });

  test("bad input is a 400 naming the field; oversized bodies a 413", async () => {
    const bad = await send("/v1/metadata/submit", { ...usage, measures: { runs: -3 } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /measures\.runs/);
    const noId = await send("/v1/beacon", { version: "1.0" });
    assert.equal(noId.status, 400);
    assert.match(noId.body.detail, /license/);
    const notJson = await send("/v1/beacon", "{oops");
    assert.equal(notJson.status, 400);
    const big = await send("/v1/metadata/submit", { ...usage, tags: { blob: "x".repeat(70_000) } });
    assert.equal(big.status, 413);
  });
});
