import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { ruleCreate, ruleUpdate } from "./schema";
import { createRule, deleteRule, listRules, readRule, updateRule } from "./service";
import { ruleWebhookReceiver, ruleWorkspaces, status } from "./test-support";

// Rules as stored; what they do to runs: evaluate.test.ts.
const hooks = ruleWebhookReceiver();

withTestDatabases("automation rules: CRUD", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let project: string;
  test("setup", async () => {
    db = (await open()).sql;
    ({ ws, other, project } = await ruleWorkspaces(db));
  });

  const make = (body: Record<string, unknown>, workspace = ws) =>
    createRule(db, workspace, ruleCreate.parse({ display_name: "r", session_id: project, ...body }));

  test("CRUD, validation and workspace scoping", async () => {
    const rule = await make({
      filter: 'eq(run_type, "llm")',
      add_feedback: { key: "flagged", score: 1 },
      webhooks: [{ url: `${hooks.url}/x`, headers: { authorization: "secret" } }],
    });
    assert.equal(rule.sampling_rate, 1);
    assert.deepEqual(rule.webhooks, [{ url: `${hooks.url}/x`, headers: { authorization: "<redacted>" }, signed: false }]);
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
});
