/**
 * Cost control end to end, on the built server: an evaluator past its workspace's spend limit is
 * skipped and logged, the playground refuses calls past its limit, and an alert fires on the
 * evaluator spend share. Evaluation runs every second here (ALERTS_INTERVAL_MS).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { Client } from "langsmith";
import { startTestModelServer, type TestModelServer } from "../server/models/test-server";
import { ALERTS_FAST as FAST, sendRuns } from "./harness/alerts";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("cost control: evaluator and playground spend limits", () => {
  let server: RunningServer;
  let model: TestModelServer;
  let client: Client;
  before(async () => {
    model = await startTestModelServer();
    server = await startServer({ env: FAST });
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
  });
  after(async () => {
    await server?.stop();
    await model?.close();
  });

  test("evaluations past the limit are skipped and logged; the playground refuses calls past its limit; an alert fires on the share", async () => {
    const connection = await call(server, "POST", "/model-connections", {
      name: "judge",
      base_url: `${model.url}/v1`,
      default_model: "gpt-4o-mini",
    });
    assert.equal(connection.status, 201, JSON.stringify(connection.body));
    const evaluator = await call(server, "POST", "/api/v1/platform/evaluators", {
      name: "helpful?",
      llm_evaluator: {
        prompt: [["user", "Is {output} helpful?"]],
        schema: { type: "object", properties: { helpful: { type: "boolean" } } },
      },
    });
    assert.equal(evaluator.status, 200, JSON.stringify(evaluator.body));
    const limit = await call(server, "PUT", "/spend-limits", { target: "evaluators", limit_usd: 0.0000001, window: "daily" });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
    assert.equal(
      (await call(server, "PUT", "/spend-limits", { target: "evaluator", limit_usd: 1 })).status,
      400,
      "evaluator_id is required",
    );
    const share = await call(server, "POST", "/alerts", {
      name: "evaluator budget",
      metric: "evaluator_spend_share",
      comparison: "gte",
      threshold: 0.8,
      window_minutes: 60,
    });
    assert.equal(share.status, 201, JSON.stringify(share.body));

    const projectName = `judged-${randomUUID().slice(0, 8)}`;
    const project = await client.createProject({ projectName });
    const rule = await call(server, "POST", "/runs/rules", {
      display_name: "judge",
      session_id: project.id,
      evaluator_id: evaluator.body.evaluator.id,
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    const logs = async () =>
      (await call(server, "GET", `/runs/rules/${rule.body.id}/logs?limit=100`)).body as { outcome: string; detail: string }[];
    await sendRuns(client, projectName, 1, 0);
    await eventually(async () => (await logs()).some((l) => l.outcome === "success"), 60_000, "the first evaluation");
    const used = (await call(server, "GET", "/spend-limits")).body.find((l: any) => l.target === "evaluators");
    assert.ok(used.spend_usd > 0.0000001, `the first call spent past the limit: ${JSON.stringify(used)}`);
    assert.ok(used.utilization_pct > 100);
    const calls = model.requests.length;
    await sendRuns(client, projectName, 3, 0);
    await eventually(async () => (await logs()).filter((l) => l.outcome === "skipped").length === 3, 60_000, "three skipped evaluations");
    const skipped = (await logs()).find((l) => l.outcome === "skipped")!;
    assert.match(skipped.detail, /skipped: the workspace's evaluators daily spend limit of \$0\.0000001 is reached/);
    assert.equal(model.requests.length, calls, "no model call past the limit");
    await eventually(
      async () => (await call(server, "GET", `/alerts/${share.body.id}`)).body.state === "firing",
      30_000,
      "the spend-share alert to fire",
    );

    assert.equal((await call(server, "PUT", "/spend-limits", { target: "playground", limit_usd: 0, window: "monthly" })).status, 200);
    const refused = await call(server, "POST", "/playground/stream", {
      connection_id: connection.body.id,
      request: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
    });
    assert.equal(refused.status, 429);
    assert.match(refused.body.detail, /playground monthly spend limit of \$0 is reached/);
  });
});
