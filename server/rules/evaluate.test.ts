import { after, before, test } from "node:test";
import { resetEnv } from "../env";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { listFeedback } from "../feedback/service";
import { feedbackListQuery } from "../feedback/schema";
import { storeProject, storeRun } from "../feedback/test-runs";
import { evaluateRules, triggerRule } from "./evaluate";
import { ruleCreate, ruleUpdate } from "./schema";
import { createRule, deleteRule, listRules, readRule, ruleLogs, updateRule } from "./service";

const status = (code: number) => (error: unknown) =>
  (error instanceof AppError && error.status === code) || (error as { clientStatus?: number }).clientStatus === code;

let receiver: Server;
let hookUrl: string;
const received: { path: string; body: any; headers: Record<string, unknown> }[] = [];
const failing = new Set<string>();
before(async () => {
  process.env.ALLOW_PRIVATE_EGRESS = "1";
  resetEnv();
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received.push({ path: req.url!, body: JSON.parse(body), headers: req.headers });
      res.writeHead(failing.has(req.url!) ? 503 : 204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
after(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

withTestDatabases("automation rules", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let project: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "rules tests")).id;
    other = (await createWorkspace(db.prisma, "other")).id;
    project = await storeProject(db, ws);
  });

  const make = (body: Record<string, unknown>, workspace = ws) =>
    createRule(db, workspace, ruleCreate.parse({ display_name: "r", session_id: project, ...body }));

  test("CRUD, validation and workspace scoping", async () => {
    const rule = await make({
      filter: 'eq(run_type, "llm")',
      add_feedback: { key: "flagged", score: 1 },
      webhooks: [{ url: `${hookUrl}/x`, headers: { authorization: "secret" } }],
    });
    assert.equal(rule.sampling_rate, 1);
    assert.deepEqual(rule.webhooks, [{ url: `${hookUrl}/x`, headers: { authorization: "<redacted>" } }]);
    assert.equal((await readRule(db, ws, rule.id)).display_name, "r");
    const changed = await updateRule(db, ws, rule.id, ruleUpdate.parse({ display_name: "renamed", sampling_rate: 0.5 }));
    assert.equal(changed.display_name, "renamed");
    assert.equal(changed.sampling_rate, 0.5);
    assert.equal(changed.filter, 'eq(run_type, "llm")');
    assert.ok((await listRules(db, ws, { offset: 0, limit: 100 })).some((r) => r.id === rule.id));
    assert.equal((await listRules(db, other, { offset: 0, limit: 100 })).length, 0);
    await assert.rejects(readRule(db, other, rule.id), status(404));
    await assert.rejects(updateRule(db, other, rule.id, {}), status(404));
    await assert.rejects(deleteRule(db, other, rule.id), status(404));

    await assert.rejects(make({}), status(400), "no action");
    await assert.rejects(make({ add_feedback: { key: "k" }, filter: "eq(run_type" }), status(400), "bad filter");
    await assert.rejects(make({ webhooks: [{ url: "ftp://example.com/" }] }), status(400), "not http(s)");
    await assert.rejects(make({ add_feedback: { key: "k" }, session_id: randomUUID() }), status(404), "unknown project");
    await assert.rejects(make({ add_feedback: { key: "k" } }, other), status(404), "another workspace's project");
    assert.throws(() => ruleCreate.parse({ display_name: "r", session_id: project, sampling_rate: 1.5, add_feedback: { key: "k" } }));
    await assert.rejects(
      updateRule(db, ws, rule.id, ruleUpdate.parse({ add_feedback: null, webhooks: [] })),
      status(400),
      "would leave no action",
    );
    await deleteRule(db, ws, rule.id);
    await assert.rejects(readRule(db, ws, rule.id), status(404));
  });

  test("after ingest: matching finished runs get feedback and a webhook, once; others are left alone", async () => {
    const p = await storeProject(db, ws);
    const rule = await createRule(
      db,
      ws,
      ruleCreate.parse({
        display_name: "llm runs",
        session_id: p,
        filter: 'eq(run_type, "llm")',
        add_feedback: { key: "auto", score: 0.5 },
        webhooks: [{ url: `${hookUrl}/hook`, headers: { "x-token": "t" } }],
      }),
    );
    const llm = await storeRun(db, ws, p, { runType: "llm", name: "chat", outputs: { text: "hi" } });
    const chain = await storeRun(db, ws, p, { runType: "chain" });
    const pending = await storeRun(db, ws, p, { runType: "llm", ended: false });
    const elsewhere = await storeRun(db, ws, project, { runType: "llm" });

    const [report] = await evaluateRules(db, ws, [llm, chain, pending, elsewhere]);
    assert.deepEqual(report, { rule_id: rule.id, matched: 1, sampled: 1, actions: { succeeded: 2, failed: 0 } });
    const hook = received.filter((r) => r.body.rule_id === rule.id);
    assert.equal(hook.length, 1);
    assert.equal(hook[0].body.rule_id, rule.id);
    assert.equal(hook[0].body.run.id, llm);
    assert.deepEqual(hook[0].body.run.outputs, { text: "hi" });
    assert.equal(hook[0].headers["x-token"], "t");
    const feedback = await listFeedback(db, ws, feedbackListQuery.parse({ run: llm }));
    assert.deepEqual(
      feedback.map((f) => [f.key, f.score, (f.feedback_source as { type: string }).type]),
      [["auto", 0.5, "auto_eval"]],
    );

    const again = await evaluateRules(db, ws, [llm]);
    assert.equal(again[0].matched, 0, "a run is acted on once per rule");
    await db.query(sql`UPDATE runs SET end_time = start_time, status = 'success' WHERE id = ${pending}`);
    assert.equal((await evaluateRules(db, ws, [pending]))[0].sampled, 1, "a run finished by a later patch is picked up then");

    const logs = await ruleLogs(db, ws, rule.id, { offset: 0, limit: 100 });
    assert.equal(logs.length, 4);
    assert.ok(logs.every((l) => l.outcome === "success"));
    assert.deepEqual(new Set(logs.map((l) => l.action)), new Set(["add_feedback", "webhook"]));
    await assert.rejects(ruleLogs(db, other, rule.id, { offset: 0, limit: 100 }), status(404));
  });

  test("sampling rate 0 acts on nothing; disabled rules are skipped on ingest", async () => {
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
    assert.equal((await listFeedback(db, ws, feedbackListQuery.parse({ run: runs }))).length, 0);
    const manual = await triggerRule(db, ws, off.id);
    assert.equal(manual.sampled, 2, "a disabled rule can still be run by hand");
  });

  test("trigger backfills matching runs, honours sampling roughly, and records failing webhooks", async () => {
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
    assert.equal((await triggerRule(db, ws, half.id)).matched, 0, "a second trigger finds nothing new");

    failing.add("/broken");
    const broken = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "broken", session_id: p, filter: `eq(id, "${runs[0]}")`, webhooks: [{ url: `${hookUrl}/broken` }] }),
    );
    const bad = await triggerRule(db, ws, broken.id);
    assert.deepEqual(bad.actions, { succeeded: 0, failed: 1 });
    assert.equal(received.filter((r) => r.body.rule_id === broken.id).length, 3, "three attempts");
    const [log] = await ruleLogs(db, ws, broken.id, { offset: 0, limit: 10 });
    assert.deepEqual([log.action, log.outcome, log.attempts, log.status_code], ["webhook", "error", 3, 503]);
    await assert.rejects(triggerRule(db, other, broken.id), status(404));
  });
});
