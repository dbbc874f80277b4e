import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { listFeedback } from "../feedback/service";
import { feedbackListQuery } from "../feedback/schema";
import { storeProject, storeRun } from "../feedback/test-runs";
import { startJobs, stopJobs } from "../jobs/queue";
import { claimRuns } from "./claim";
import { ACTION_ATTEMPTS } from "./deliver";
import { evaluateRules, triggerRule } from "./evaluate";
import { ruleCreate, ruleUpdate } from "./schema";
import { createRule, readRule, ruleLogs, updateRule } from "./service";
import { ruleWebhookReceiver, ruleWorkspaces, status } from "./test-support";

const hooks = ruleWebhookReceiver();
const { received, failures } = hooks;

async function until(what: string, done: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

withTestDatabases("automation rules", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let project: string;
  test("setup", async () => {
    db = (await open()).sql;
    ({ ws, other, project } = await ruleWorkspaces(db));
    await startJobs(db, 1);
  });

  /** The deliveries a rule's webhook got, once `count` of them have come. */
  const deliveries = async (ruleId: string, count: number) => {
    await until(`${count} deliveries`, async () => received.filter((r) => r.body.rule_id === ruleId).length >= count);
    return received.filter((r) => r.body.rule_id === ruleId);
  };
  const logsOf = (ruleId: string) => ruleLogs(db, ws, ruleId, { offset: 0, limit: 1000 });

  test("runs are claimed from the runs table: matching finished runs get feedback and a webhook, once; others are left alone", async () => {
    const p = await storeProject(db, ws);
    const rule = await createRule(
      db,
      ws,
      ruleCreate.parse({
        display_name: "llm runs",
        session_id: p,
        filter: 'eq(run_type, "llm")',
        add_feedback: { key: "auto", score: 0.5 },
        webhooks: [{ url: `${hooks.url}/hook`, headers: { "x-token": "t" } }],
      }),
    );
    // Stored without ingest, so no notification: the claim finds them in the table.
    const llm = await storeRun(db, ws, p, { runType: "llm", name: "chat", outputs: { text: "hi" } });
    const chain = await storeRun(db, ws, p, { runType: "chain" });
    const pending = await storeRun(db, ws, p, { runType: "llm", ended: false });
    const elsewhere = await storeRun(db, ws, project, { runType: "llm" });
    await claimRuns(db);

    const [hook] = await deliveries(rule.id, 1);
    assert.equal(hook.body.run.id, llm);
    assert.deepEqual(hook.body.run.outputs, { text: "hi" });
    assert.equal(hook.headers["x-token"], "t");
    assert.match(String(hook.headers["x-tracelight-delivery"]), /^[0-9a-f-]{36}$/);
    await until("feedback", async () => (await listFeedback(db, ws, feedbackListQuery.parse({ run: llm }))).length === 1);
    const feedback = await listFeedback(db, ws, feedbackListQuery.parse({ run: [llm, chain, pending, elsewhere] }));
    assert.deepEqual(
      feedback.map((f) => [f.run_id, f.key, f.score, (f.feedback_source as { type: string }).type]),
      [[llm, "auto", 0.5, "auto_eval"]],
    );

    await claimRuns(db);
    assert.deepEqual(await evaluateRules(db, ws, [llm]), [{ rule_id: rule.id, matched: 0, sampled: 0, actions: { queued: 0 } }]);
    await db.query(sql`UPDATE runs SET end_time = start_time, status = 'success', updated_at = now() WHERE id = ${pending}`);
    await claimRuns(db);
    const both = await deliveries(rule.id, 2);
    assert.deepEqual(new Set(both.map((d) => d.body.run.id)), new Set([llm, pending]), "a run finished by a later patch is picked up then");

    await until("4 log lines", async () => (await logsOf(rule.id)).length === 4);
    const logs = await logsOf(rule.id);
    assert.ok(logs.every((l) => l.outcome === "success"));
    assert.deepEqual(new Set(logs.map((l) => l.action)), new Set(["add_feedback", "webhook"]));
    assert.ok(
      logs.some((l) => l.id === hook.headers["x-tracelight-delivery"]),
      "the webhook's success is logged under its delivery id",
    );
    await new Promise((r) => setTimeout(r, 700));
    assert.equal((await deliveries(rule.id, 2)).length, 2, "once per run");
    await assert.rejects(ruleLogs(db, other, rule.id, { offset: 0, limit: 100 }), status(404));
  });

  test("a webhook with a secret is HMAC-signed as alert webhooks are; the secret is never shown", async () => {
    const p = await storeProject(db, ws);
    const secret = "rule-signing-secret";
    const rule = await createRule(
      db,
      ws,
      ruleCreate.parse({
        display_name: "signed",
        session_id: p,
        webhooks: [{ url: `${hooks.url}/signed`, secret }, { url: `${hooks.url}/plain` }],
      }),
    );
    assert.deepEqual(
      rule.webhooks.map((w) => [w.url.slice(hooks.url.length), w.signed]),
      [
        ["/signed", true],
        ["/plain", false],
      ],
    );
    assert.ok(!JSON.stringify(await readRule(db, ws, rule.id)).includes(secret), "the secret is not answered");
    const [stored] = await db.query<{ webhooks: string }>(sql`SELECT webhooks::text AS webhooks FROM run_rules WHERE id = ${rule.id}`);
    assert.ok(!stored.webhooks.includes(secret), "the secret is stored sealed");
    await storeRun(db, ws, p, { runType: "llm" });
    await claimRuns(db);
    const both = await deliveries(rule.id, 2);
    const signed = both.find((d) => d.path === "/signed")!;
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(signed.headers["x-tracelight-signature"])) ?? [];
    assert.ok(t && Math.abs(Date.now() / 1000 - Number(t)) < 60, "a fresh timestamp");
    assert.equal(v1, createHmac("sha256", secret).update(`${t}.${signed.raw}`).digest("hex"), "HMAC of t.body with the secret");
    assert.notEqual(v1, createHmac("sha256", "another-secret").update(`${t}.${signed.raw}`).digest("hex"));
    assert.equal(both.find((d) => d.path === "/plain")!.headers["x-tracelight-signature"], undefined, "unsigned without a secret");
    const changed = await updateRule(db, ws, rule.id, ruleUpdate.parse({ webhooks: [{ url: `${hooks.url}/signed` }] }));
    assert.deepEqual(
      changed.webhooks.map((w) => w.signed),
      [false],
      "sent webhooks replace the stored ones, secrets included",
    );
    assert.throws(
      () => ruleCreate.parse({ display_name: "short", session_id: p, webhooks: [{ url: `${hooks.url}/x`, secret: "short" }] }),
      /at least 8/,
    );
  });

  test("a writer that commits after a later one is not skipped: the cursor waits for open transactions", async (t) => {
    if ((await open()).poolStats().length === 0)
      return t.skip("the embedded database has one connection: no other transaction is open while the claim runs");
    const p = await storeProject(db, ws);
    const rule = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "order", session_id: p, webhooks: [{ url: `${hooks.url}/order` }] }),
    );
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let early = "";
    const slow = db.tx(async (tx) => {
      early = await storeRun(tx, ws, p); // its updated_at is this transaction's start
      await gate;
    });
    await until("the slow writer", async () => early !== "");
    const late = await storeRun(db, ws, p);
    await claimRuns(db);
    release();
    await slow;
    await claimRuns(db);
    const got = await deliveries(rule.id, 2);
    assert.deepEqual(new Set(got.map((d) => d.body.run.id)), new Set([early, late]));
  });

  test("sampling rate 0 acts on nothing; disabled rules are skipped", async () => {
    const p = await storeProject(db, ws);
    const never = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "never", session_id: p, sampling_rate: 0, add_feedback: { key: "s0" } }),
    );
    const off = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "off", session_id: p, is_enabled: false, add_feedback: { key: "off" } }),
    );
    const runs = [await storeRun(db, ws, p), await storeRun(db, ws, p)];
    const reports = await evaluateRules(db, ws, runs);
    assert.deepEqual(
      reports.map((r) => [r.rule_id, r.matched, r.sampled]),
      [[never.id, 2, 0]],
    );
    const manual = await triggerRule(db, ws, off.id);
    assert.deepEqual([manual.sampled, manual.actions.queued], [2, 2], "a disabled rule can still be run by hand");
    await until("the manual run's feedback", async () => (await listFeedback(db, ws, feedbackListQuery.parse({ run: runs }))).length === 2);
    assert.deepEqual(
      (await listFeedback(db, ws, feedbackListQuery.parse({ run: runs }))).map((f) => f.key),
      ["off", "off"],
    );
  });

  test("trigger claims past runs, honours sampling roughly; a failing webhook is retried with backoff under one delivery id", async () => {
    const p = await storeProject(db, ws);
    const runs: string[] = [];
    for (let i = 0; i < 200; i++) runs.push(await storeRun(db, ws, p, { name: i % 2 ? "odd" : "even" }));
    const half = await createRule(
      db,
      ws,
      ruleCreate.parse({
        display_name: "half",
        session_id: p,
        sampling_rate: 0.5,
        filter: 'eq(name, "even")',
        add_feedback: { key: "half" },
      }),
    );
    const report = await triggerRule(db, ws, half.id);
    assert.equal(report.matched, 100);
    assert.ok(report.sampled > 25 && report.sampled < 75, `sampled ${report.sampled} of 100 at 0.5`);
    assert.equal(report.actions.queued, report.sampled);
    assert.equal((await triggerRule(db, ws, half.id)).matched, 0, "a second trigger finds nothing new");

    failures.set("/flaky", 2);
    const flaky = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "flaky", session_id: p, filter: `eq(id, "${runs[0]}")`, webhooks: [{ url: `${hooks.url}/flaky` }] }),
    );
    assert.deepEqual((await triggerRule(db, ws, flaky.id)).actions, { queued: 1 });
    const tries = await deliveries(flaky.id, 3);
    assert.equal(new Set(tries.map((d) => d.headers["x-tracelight-delivery"])).size, 1, "one delivery id across retries");
    await until("the success", async () => (await logsOf(flaky.id)).some((l) => l.outcome === "success"));
    const logs = (await logsOf(flaky.id)).reverse();
    assert.deepEqual(
      logs.map((l) => [l.outcome, l.attempts, l.status_code]),
      [
        ["error", 1, 503],
        ["error", 2, 503],
        ["success", 3, 204],
      ],
    );
    assert.match(logs[0].detail!, /attempt 1 of 8, next in/);

    failures.set("/gone", Infinity);
    const gone = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "gone", session_id: p, filter: `eq(id, "${runs[0]}")`, webhooks: [{ url: `${hooks.url}/gone` }] }),
    );
    await triggerRule(db, ws, gone.id);
    await until("giving up", async () => (await logsOf(gone.id)).length === ACTION_ATTEMPTS, 30_000);
    const [last] = await logsOf(gone.id);
    assert.deepEqual([last.action, last.outcome, last.attempts, last.status_code], ["webhook", "error", ACTION_ATTEMPTS, 503]);
    assert.match(last.detail!, /gave up after 8 attempts/);
    assert.equal((await deliveries(gone.id, ACTION_ATTEMPTS)).length, ACTION_ATTEMPTS);
    await assert.rejects(triggerRule(db, other, gone.id), status(404));
  });

  test("teardown", async () => {
    await stopJobs();
  });
});
