import { test } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { beaconReport, metadataSubmit } from "./schema";
import { MAX_REPORT_BYTES, readReport, reportsForLicense, submitBeacon, submitMetadata } from "./service";

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request("http://x/v1/metadata/submit", {
    method: "POST",
    body: typeof body === "string" ? body : body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body),
    headers,
  });
const fails = (code: number, detail: RegExp) => (e: unknown) => e instanceof AppError && e.status === code && detail.test(e.detail);

const usage = {
  license: "lic-123",
  from_timestamp: "2025-01-06T09:00:00Z",
  to_timestamp: "2025-01-06T10:00:00Z",
  tags: { "langgraph_api.version": "0.2.0", "langgraph.platform.plan": "enterprise", "user_app.uses_indexing": "true" },
  measures: { "langgraph.platform.runs": 150, "langgraph.platform.nodes": 450 },
  logs: [],
};

test("validation names the field", async () => {
  await assert.rejects(
    readReport(post({ ...usage, from_timestamp: "yesterday" }), metadataSubmit),
    fails(400, /from_timestamp: must be an ISO-8601/),
  );
  await assert.rejects(
    readReport(post({ ...usage, measures: { runs: -1 } }), metadataSubmit),
    fails(400, /measures\.runs: must not be negative/),
  );
  await assert.rejects(readReport(post({ ...usage, measures: { runs: "5" } }), metadataSubmit), fails(400, /measures\.runs/));
  await assert.rejects(
    readReport(post({ ...usage, to_timestamp: "2025-01-06T08:00:00Z" }), metadataSubmit),
    fails(400, /to_timestamp: must not be before/),
  );
  await assert.rejects(
    readReport(post({ ...usage, license: undefined }), metadataSubmit),
    fails(400, /license: one of license, api_key or instance_id/),
  );
  await assert.rejects(readReport(post({ license: "x" }), metadataSubmit), fails(400, /from_timestamp/));
  await assert.rejects(readReport(post("{not json"), metadataSubmit), fails(400, /JSON/));
  await assert.rejects(
    readReport(post({ instance_id: "i", trace_transactions: [{ trace_count: 1.5 }] }), beaconReport),
    fails(400, /trace_transactions\.0\.trace_count: must be an integer/),
  );
  await assert.rejects(readReport(post({ instance_id: "i", event: "no spaces allowed" }), beaconReport), fails(400, /event/));
});

test("body size is limited, declared or not, compressed or not", async () => {
  const big = { ...usage, tags: { blob: "x".repeat(MAX_REPORT_BYTES) } };
  await assert.rejects(readReport(post(big), metadataSubmit), fails(413, /limit/));
  await assert.rejects(
    readReport(post(JSON.stringify(big), { "content-length": String(MAX_REPORT_BYTES + 1) }), metadataSubmit),
    fails(413, /limit/),
  );
  // Small on the wire, large once decoded.
  await assert.rejects(
    readReport(post(gzipSync(JSON.stringify(big)), { "content-encoding": "gzip" }), metadataSubmit),
    fails(413, /limit/),
  );
  const ok = await readReport(post(gzipSync(JSON.stringify(usage)), { "content-encoding": "gzip" }), metadataSubmit);
  assert.equal(ok.license, "lic-123");
});

withTestDatabases("deployment reports", (open) => {
  let db: Sql;
  test("setup", async () => {
    db = (await open()).sql;
  });

  test("metadata submit is stored with the license as a digest only; read back per license", async () => {
    const stored = await submitMetadata(
      db,
      "203.0.113.7",
      metadataSubmit.parse({ ...usage, version: "0.11.2", extra_field: { kept: true } }),
    );
    assert.equal(stored.kind, "metadata");
    assert.match(stored.id, /^[0-9a-f-]{36}$/);
    const [row] = await db.query<Record<string, unknown>>(sql`SELECT * FROM deployment_reports WHERE id = ${stored.id}`);
    assert.doesNotMatch(JSON.stringify(row), /lic-123/);
    assert.match(row.license_digest as string, /^[0-9a-f]{64}$/);
    const [report] = await reportsForLicense(db, "lic-123");
    assert.equal(report.id, stored.id);
    assert.equal(report.version, "0.11.2");
    assert.equal(report.ip, "203.0.113.7");
    assert.equal(report.from_time, "2025-01-06T09:00:00.000000Z");
    assert.equal(report.to_time, "2025-01-06T10:00:00.000000Z");
    assert.deepEqual(report.measures, usage.measures);
    assert.deepEqual(report.tags, usage.tags);
    assert.deepEqual(report.payload, { logs: [], extra_field: { kept: true } });
    assert.deepEqual(await reportsForLicense(db, "other"), []);
  });

  test("beacon: license checks, heartbeats and trace counts (summed into langsmith.traces)", async () => {
    const verify = await submitBeacon(db, null, beaconReport.parse({ license: "lic-b", event: "verify" }));
    assert.equal(verify.kind, "beacon:verify");
    const traces = await submitBeacon(
      db,
      null,
      beaconReport.parse({
        license: "lic-b",
        event: "ingest-traces",
        trace_transactions: [
          {
            id: "af28dfea-5358-463d-a2dc-37df1da72498",
            trace_count: 5,
            start_interval_time: "2025-01-06T09:00:00Z",
            end_interval_time: "2025-01-06T10:00:00Z",
            status: "completed",
          },
          { trace_count: 7 },
        ],
      }),
    );
    const beat = await submitBeacon(
      db,
      null,
      beaconReport.parse({ instance_id: "inst-1", version: "0.13.0", measures: { "langsmith.seats_in_use": 4 } }),
    );
    assert.equal(beat.kind, "beacon:heartbeat");
    const rows = await reportsForLicense(db, "lic-b");
    assert.deepEqual(rows.map((r) => r.id).sort(), [verify.id, traces.id].sort());
    const t = rows.find((r) => r.id === traces.id)!;
    assert.deepEqual(t.measures, { "langsmith.traces": 12 });
    assert.equal((t.payload as { trace_transactions: unknown[] }).trace_transactions.length, 2);
    const [b] = await db.query<{ instance_id: string; license_digest: string | null }>(
      sql`SELECT instance_id, license_digest FROM deployment_reports WHERE id = ${beat.id}`,
    );
    assert.deepEqual(b, { instance_id: "inst-1", license_digest: null });
  });
});
