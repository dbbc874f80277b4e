/**
 * Alerts end to end, on the built server: a rule on a project's error rate fires within 2 minutes
 * of a burst of failing runs sent by the real `langsmith` client and sends one notification per
 * destination to a local receiver (generic JSON and Slack signed with HMAC, PagerDuty Events v2),
 * resolves once the runs are healthy again (PagerDuty resolve, same dedup_key), and on PostgreSQL is
 * evaluated once across two instances. Evaluation runs every second here (ALERTS_INTERVAL_MS).
 * Spend limits and the spend-share alert: spend-limits.test.ts.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { Client } from "langsmith";
import { ALERTS_FAST as FAST, destinations, sendRuns, startReceiver, verified } from "./harness/alerts";
import { call, eventually } from "./harness/http";
import { scratchDatabase, startServer, type RunningServer } from "./harness/server";

describe("an error-rate alert, end to end", () => {
  let server: RunningServer;
  let client: Client;
  let hooks: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    hooks = await startReceiver();
    server = await startServer({ env: FAST });
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
  });
  after(async () => {
    await server?.stop();
    hooks?.server.close();
  });

  test("fires within 2 minutes of a burst of failing runs, notifies once per destination, resolves when healthy", async () => {
    const projectName = `shop-${randomUUID().slice(0, 8)}`;
    const project = await client.createProject({ projectName });
    const bad = await call(server, "POST", "/alerts", { name: "checkout errors", session_id: project.id, metric: "error_rate" });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /comparison|threshold|window_minutes/);
    const created = await call(server, "POST", "/alerts", {
      name: "checkout errors",
      session_id: project.id,
      metric: "error_rate",
      comparison: "gt",
      threshold: 0.5,
      window_minutes: 5,
      destinations: destinations(hooks.url),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const alert = created.body;
    assert.doesNotMatch(JSON.stringify(alert), /e2e-routing-key|signing-secret/);
    await sendRuns(client, projectName, 4, 0);
    await eventually(async () => (await call(server, "GET", `/alerts/${alert.id}`)).body.state === "ok", 30_000, "the rule to be ok");

    const burst = Date.now();
    await sendRuns(client, projectName, 12, 12);
    await eventually(async () => hooks.received.length >= 3, 120_000, "the three notifications");
    assert.ok(Date.now() - burst < 120_000, "fired within 2 minutes");
    await new Promise((r) => setTimeout(r, 3000));
    assert.deepEqual(hooks.received.map((r) => r.path).sort(), ["/generic", "/pagerduty", "/slack"], "one notification per destination");

    const generic = hooks.received.find((r) => r.path === "/generic")!;
    assert.equal(generic.body.event, "alert.fired");
    assert.equal(generic.body.alert.id, alert.id);
    assert.equal(generic.body.state, "firing");
    assert.ok(generic.body.value > 0.5);
    assert.ok(verified("generic-signing-secret", generic), "the generic body's signature verifies");
    assert.ok(!verified("another-secret", generic));
    const slack = hooks.received.find((r) => r.path === "/slack")!;
    assert.equal(typeof slack.body.text, "string");
    assert.match(slack.body.text, /^Firing: checkout errors — error rate \d+\.\d% > 50\.0% over the last 5 min/);
    assert.equal(slack.body.blocks[0].type, "header");
    assert.ok(slack.body.blocks.some((b: any) => b.type === "section" && b.text.type === "mrkdwn"));
    assert.ok(verified("slack-signing-secret", slack));
    const trigger = hooks.received.find((r) => r.path === "/pagerduty")!;
    assert.equal(trigger.body.routing_key, "e2e-routing-key");
    assert.equal(trigger.body.event_action, "trigger");
    assert.equal(trigger.body.dedup_key, `tracelight-alert-${alert.id}`);
    assert.equal(trigger.body.payload.severity, "critical");
    assert.equal(trigger.body.payload.source, `tracelight/${projectName}`);
    assert.match(trigger.body.payload.summary, /^Firing: checkout errors/);

    hooks.received.length = 0;
    await sendRuns(client, projectName, 40, 0);
    await eventually(async () => hooks.received.length >= 3, 60_000, "the resolve notifications");
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(hooks.received.length, 3, "one resolve per destination");
    const resolve = hooks.received.find((r) => r.path === "/pagerduty")!;
    assert.equal(resolve.body.event_action, "resolve");
    assert.equal(resolve.body.dedup_key, trigger.body.dedup_key, "the resolve closes the same incident");
    assert.equal(hooks.received.find((r) => r.path === "/generic")!.body.event, "alert.resolved");

    const history = await call(server, "GET", `/alerts/${alert.id}/history`);
    assert.equal(history.status, 200);
    const kinds = history.body.map((e: any) => e.kind);
    assert.deepEqual(
      kinds.filter((k: string) => k === "fired" || k === "resolved"),
      ["resolved", "fired"],
    );
    const fired = history.body.find((e: any) => e.kind === "fired");
    assert.ok(fired.value > 0.5);
    assert.equal(fired.source, "rollups");
    assert.deepEqual(fired.deliveries.map((d: any) => d.outcome).sort(), ["success", "success", "success"]);

    hooks.received.length = 0;
    const tested = await call(server, "POST", `/alerts/${alert.id}/test`);
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    assert.equal(tested.body.deliveries.length, 3);
    assert.equal(hooks.received.find((r) => r.path === "/generic")!.body.event, "alert.test");
    assert.equal(hooks.received.find((r) => r.path === "/pagerduty")!.body.dedup_key, `tracelight-alert-${alert.id}-test`);

    assert.equal((await call(server, "GET", `/alerts/${randomUUID()}`)).status, 404);
    const listed = await call(server, "GET", `/alerts?session_id=${project.id}`);
    assert.deepEqual(
      listed.body.map((a: any) => a.id),
      [alert.id],
    );
    const muted = await call(server, "PATCH", `/alerts/${alert.id}`, { muted_until: new Date(Date.now() + 60_000).toISOString() });
    assert.equal(muted.status, 200);
    assert.ok(muted.body.muted_until);
    assert.equal((await call(server, "DELETE", `/alerts/${alert.id}`)).status, 200);
  });
});

describe(
  "two instances on one PostgreSQL evaluate a rule once",
  { skip: process.env.E2E_DATABASE_URL ? false : "needs E2E_DATABASE_URL (PostgreSQL)" },
  () => {
    let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
    let web: RunningServer[] = [];
    let hooks: Awaited<ReturnType<typeof startReceiver>>;
    before(async () => {
      hooks = await startReceiver();
      scratch = await scratchDatabase(process.env.E2E_DATABASE_URL!);
      const env = {
        ...FAST,
        DATABASE_URL: scratch.url,
        NEXTAUTH_SECRET: randomUUID() + randomUUID(),
        INTERNAL_SECRET: randomUUID() + randomUUID(),
        JOB_WORKERS: "1",
      };
      const first = await startServer({ env });
      web = [first, await startServer({ env, existing: { apiKey: first.apiKey, workspaceId: first.workspaceId } })];
    });
    after(async () => {
      for (const s of web) await s.stop();
      hooks?.server.close();
      await scratch?.drop().catch(() => undefined);
    });

    test("one notification per destination, and one evaluation job per interval", async () => {
      const client = new Client({ apiUrl: web[1]!.url, apiKey: web[1]!.apiKey, autoBatchTracing: false });
      const projectName = `scaled-${randomUUID().slice(0, 8)}`;
      const project = await client.createProject({ projectName });
      const created = await call(web[0]!, "POST", "/alerts", {
        name: "errors everywhere",
        session_id: project.id,
        metric: "error_rate",
        comparison: "gte",
        threshold: 0.5,
        window_minutes: 5,
        destinations: destinations(hooks.url),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await sendRuns(client, projectName, 10, 10);
      await eventually(async () => hooks.received.length >= 3, 120_000, "the notifications");
      await new Promise((r) => setTimeout(r, 5000));
      assert.deepEqual(
        hooks.received.map((r) => r.path).sort(),
        ["/generic", "/pagerduty", "/slack"],
        "each destination once across both instances",
      );
      const history = (await call(web[1]!, "GET", `/alerts/${created.body.id}/history`)).body;
      assert.equal(history.filter((e: any) => e.kind === "fired").length, 1);
      const { Client: Pg } = await import("pg");
      const pg = new Pg({ connectionString: scratch.url });
      await pg.connect();
      const { rows } = await pg.query(
        `SELECT count(*)::int AS jobs, count(DISTINCT data->>'slot')::int AS slots FROM (
         SELECT data FROM pgboss.job WHERE name = 'alert-evaluate' AND data->>'rule_id' = $1
         UNION ALL SELECT data FROM pgboss.archive WHERE name = 'alert-evaluate' AND data->>'rule_id' = $1) j`,
        [created.body.id],
      );
      await pg.end();
      assert.ok(rows[0].slots >= 5, `evaluated every interval: ${JSON.stringify(rows[0])}`);
      assert.equal(rows[0].jobs, rows[0].slots, "one evaluation per interval, not one per instance");
    });
  },
);
