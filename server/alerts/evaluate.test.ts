import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createWorkspace } from "../auth/workspaces";
import { AppError } from "../core/errors";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { resetEnv } from "../env";
import { insertFeedback } from "../feedback/store";
import { storeProject, storeRun } from "../feedback/test-runs";
import { startJobs, stopJobs } from "../jobs/queue";
import { evaluateAlert } from "./evaluate";
import { near } from "../runs/rollups/test-near";
import { measureMetric, rollupsAnswer, type MetricQuery } from "./metric";
import { alertCreate } from "./schema";
import { alertHistory, createAlert, listAlerts, readAlert, testAlert, updateAlert } from "./service";

let receiver: Server;
let base: string;
const received: { path: string; raw: string; body: any; headers: Record<string, string | string[] | undefined> }[] = [];
before(async () => {
  process.env.ALLOW_PRIVATE_EGRESS = "1";
  resetEnv();
  receiver = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      received.push({ path: req.url!, raw, body: JSON.parse(raw), headers: req.headers });
      res.writeHead(req.url === "/refuse" ? 400 : 202).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
after(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

async function until(what: string, done: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const verify = (secret: string, header: string, raw: string) => {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
  return v1 === createHmac("sha256", secret).update(`${t}.${raw}`).digest("hex");
};
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
let slot = Date.parse("2026-01-01T00:00:00Z");
const nextSlot = () => new Date((slot += 60_000)).toISOString();

withTestDatabases("alert rules", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let project: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "alerts tests")).id;
    other = (await createWorkspace(db.prisma, "other")).id;
    project = await storeProject(db, ws);
    await startJobs(db, 1);
  });
  after(() => stopJobs());

  test("an error-rate rule fires once, notifies each destination in its shape, and resolves", async () => {
    received.length = 0;
    const rule = await createAlert(
      db,
      ws,
      alertCreate.parse({
        name: "errors",
        session_id: project,
        metric: "error_rate",
        comparison: "gt",
        threshold: 0.5,
        window_minutes: 5,
        destinations: [
          { kind: "webhook", url: `${base}/generic`, secret: "generic-secret" },
          { kind: "slack", url: `${base}/slack`, secret: "slack-secret" },
          { kind: "pagerduty", url: `${base}/pd`, routing_key: "R0UTING", severity: "critical" },
        ],
      }),
    );
    assert.equal(rule.state, "no_data");
    assert.deepEqual(
      rule.destinations.map((d) => [d.kind, d.signed, d.routing_key]),
      [
        ["webhook", true, null],
        ["slack", true, null],
        ["pagerduty", false, "<redacted>"],
      ],
    );
    const stored = JSON.stringify((await db.prisma.alertRule.findUnique({ where: { id: rule.id } }))!.destinations);
    assert.ok(!stored.includes("R0UTING") && !stored.includes("generic-secret"), "secrets are sealed");

    await evaluateAlert(db, rule.id, nextSlot());
    assert.equal((await readAlert(db, ws, rule.id)).state, "no_data", "no runs: no data");

    for (let i = 0; i < 6; i++) await storeRun(db, ws, project, { error: "boom", startTime: ago(1) });
    for (let i = 0; i < 2; i++) await storeRun(db, ws, project, { startTime: ago(1) });
    await storeRun(db, ws, project, { error: "old", startTime: ago(30) });
    const firing = nextSlot();
    await evaluateAlert(db, rule.id, firing);
    await evaluateAlert(db, rule.id, firing);
    const fired = await readAlert(db, ws, rule.id);
    assert.equal(fired.state, "firing");
    assert.equal(fired.last_value, 0.75);
    assert.equal(fired.last_source, "rollups");
    await until("three notifications", () => received.length >= 3);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(received.length, 3, "one notification per destination, once");

    const generic = received.find((r) => r.path === "/generic")!;
    assert.equal(generic.body.event, "alert.fired");
    assert.equal(generic.body.value, 0.75);
    assert.equal(generic.body.alert.id, rule.id);
    assert.ok(verify("generic-secret", String(generic.headers["x-tracelight-signature"]), generic.raw), "signature verifies");
    assert.ok(!verify("wrong", String(generic.headers["x-tracelight-signature"]), generic.raw));
    const slack = received.find((r) => r.path === "/slack")!;
    assert.match(slack.body.text, /^Firing: errors — error rate 75\.0% > 50\.0% over the last 5 min/);
    assert.deepEqual(
      slack.body.blocks.map((b: { type: string }) => b.type),
      ["header", "section", "context"],
    );
    assert.ok(verify("slack-secret", String(slack.headers["x-tracelight-signature"]), slack.raw));
    const pd = received.find((r) => r.path === "/pd")!;
    assert.equal(pd.body.routing_key, "R0UTING");
    assert.equal(pd.body.event_action, "trigger");
    assert.equal(pd.body.dedup_key, `tracelight-alert-${rule.id}`);
    assert.equal(pd.body.payload.severity, "critical");
    assert.match(pd.body.payload.summary, /^Firing: errors/);
    assert.ok(pd.body.payload.source);
    assert.equal(pd.headers["x-tracelight-signature"], undefined, "unsigned without a secret");

    received.length = 0;
    for (let i = 0; i < 20; i++) await storeRun(db, ws, project, { startTime: ago(1) });
    await evaluateAlert(db, rule.id, nextSlot());
    assert.equal((await readAlert(db, ws, rule.id)).state, "ok");
    await until("the resolve notifications", () => received.length >= 3);
    const resolve = received.find((r) => r.path === "/pd")!;
    assert.equal(resolve.body.event_action, "resolve");
    assert.equal(resolve.body.dedup_key, pd.body.dedup_key, "the same dedup_key closes the incident");
    assert.equal(received.find((r) => r.path === "/generic")!.body.event, "alert.resolved");

    await until("the deliveries logged", () => false, 300).catch(() => undefined);
    const history = await alertHistory(db, ws, rule.id, { limit: 10, offset: 0 });
    assert.deepEqual(
      history.map((e) => [e.kind, e.from_state, e.to_state]),
      [
        ["resolved", "firing", "ok"],
        ["fired", "no_data", "firing"],
      ],
    );
    assert.equal(history[1].value, 0.75);
    assert.equal(history[1].deliveries.length, 3);
    assert.ok(history[1].deliveries.every((d) => d.outcome === "success"));
  });

  test("a muted rule changes state without notifying; a test notification goes out at once", async () => {
    const rule = await createAlert(
      db,
      ws,
      alertCreate.parse({
        name: "volume",
        session_id: project,
        metric: "run_count",
        comparison: "gte",
        threshold: 1,
        window_minutes: 10,
        muted_until: new Date(Date.now() + 3_600_000).toISOString(),
        destinations: [{ kind: "webhook", url: `${base}/muted` }],
      }),
    );
    await evaluateAlert(db, rule.id, nextSlot());
    assert.equal((await readAlert(db, ws, rule.id)).state, "firing");
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(received.filter((r) => r.path === "/muted").length, 0, "muted: no notification");
    const tested = await testAlert(db, ws, rule.id);
    assert.equal(tested.deliveries[0].ok, true);
    const test = received.find((r) => r.path === "/muted")!;
    assert.equal(test.body.event, "alert.test");
    await updateAlert(db, ws, rule.id, { destinations: [{ kind: "webhook", url: `${base}/refuse` }] });
    await assert.rejects(testAlert(db, ws, rule.id), (e) => e instanceof AppError && e.status === 502 && /HTTP 400/.test(e.message));
  });

  test("rules are the workspace's own", async () => {
    assert.equal((await listAlerts(db, other, { limit: 100, offset: 0 })).length, 0);
    const [mine] = await listAlerts(db, ws, { limit: 1, offset: 0 });
    await assert.rejects(readAlert(db, other, mine.id), (e) => e instanceof AppError && e.status === 404);
    await assert.rejects(
      createAlert(
        db,
        other,
        alertCreate.parse({ name: "x", session_id: project, metric: "run_count", comparison: "gt", threshold: 1, window_minutes: 5 }),
      ),
      (e) => e instanceof AppError && e.status === 404,
    );
    assert.equal(
      alertCreate.safeParse({ name: "x", metric: "error_rate", comparison: "gt", threshold: 1, window_minutes: 5 }).success,
      false,
    );
  });

  test("the rollups and the scan give the same numbers; a filter beyond the rollups is scanned", async () => {
    const p = await storeProject(db, ws);
    for (let i = 0; i < 5; i++)
      await storeRun(db, ws, p, { name: "agent", error: i < 2 ? "x" : null, startTime: ago(150 + i), tags: ["t"] });
    for (let i = 0; i < 7; i++) await storeRun(db, ws, p, { name: "tool", startTime: ago(20 + i), tags: ["t"] });
    const [run] = await db.query<{ id: string; trace_id: string }>(
      (await import("../db/sql")).sql`SELECT id, trace_id FROM runs WHERE project_id = ${p} AND name = 'tool' LIMIT 1`,
    );
    await insertFeedback(db, ws, [
      { id: randomUUID(), run_id: run.id, trace_id: run.trace_id, key: "thumbs", score: 0, value: "down" },
      { id: randomUUID(), run_id: run.id, trace_id: run.trace_id, key: "thumbs2", score: 1, value: "up" },
    ] as never);
    const q = (metric: MetricQuery["metric"], filter: string | null = null, minutes = 240): MetricQuery => ({
      workspaceId: ws,
      projectId: p,
      filter,
      rootRunsOnly: true,
      metric,
      feedbackKey: "thumbs",
      feedbackValue: "down",
      startMs: Date.now() - minutes * 60_000,
      endMs: Date.now(),
    });
    for (const metric of ["run_count", "error_rate", "feedback_mean", "feedback_share", "total_cost"] as const) {
      const rolled = await measureMetric(db, q(metric));
      assert.equal(rolled.source, "rollups");
      // A tag filter is beyond the rollups' dimensions; `has(tags, "t")` matches every run here, so the numbers agree.
      const scanned = await measureMetric(db, q(metric, 'has(tags, "t")'));
      assert.equal(scanned.source, "scan");
      assert.deepEqual(rolled.value, scanned.value, metric);
    }
    // Percentiles from the sketches: within their relative error of the exact ones; none in an empty window.
    for (const metric of ["latency_p50", "latency_p95", "latency_p99"] as const) {
      const rolled = await measureMetric(db, q(metric));
      assert.equal(rolled.source, "rollups");
      near(rolled.value, (await measureMetric(db, q(metric, 'has(tags, "t")'))).value, metric);
    }
    assert.equal(
      (await measureMetric(db, { ...q("latency_p50"), startMs: Date.now() - 3_600_000 * 30, endMs: Date.now() - 3_600_000 * 29 })).value,
      null,
    );
    assert.equal((await measureMetric(db, q("run_count"))).value, 12);
    assert.equal((await measureMetric(db, q("error_rate"))).value, 2 / 12);
    assert.equal((await measureMetric(db, q("run_count", 'eq(name, "agent")'))).value, 5);
    assert.equal((await measureMetric(db, q("run_count", null, 60))).value, 7);
    assert.equal((await measureMetric(db, q("feedback_share"))).value, 1);
    assert.equal(
      rollupsAnswer({ workspaceId: ws, projectId: p, filter: 'eq(name, "agent")', rootRunsOnly: true, metric: "latency_p95" }),
      false,
    );
    assert.equal(
      rollupsAnswer({ workspaceId: ws, projectId: p, filter: 'eq(name, "agent")', rootRunsOnly: true, metric: "error_rate" }),
      true,
    );
  });
});
