/**
 * The audit trail on a running server: each family of actions, done through the REST API (and
 * sign-in through next-auth), leaves its entry with the caller and address; the list filters and
 * pages; the exports are CSV and JSON Lines; only admins read it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { newUser, signIn, ui, type Browser } from "./harness/auth";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";
import { teammate } from "./harness/team";

interface Entry {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; label: string | null };
  ip: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: any;
  after: any;
}

describe("audit trail", () => {
  let server: RunningServer;
  let ada: Browser;
  let admin: { url: string; apiKey: string };
  let adminKeyId: string;
  let projectId: string;

  /** The newest entries with this action (admin's view). */
  const entries = async (action: string, extra = ""): Promise<Entry[]> => {
    const page = await call(admin, "GET", `/audit-logs?action=${encodeURIComponent(action)}&limit=100${extra}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    return page.body.items;
  };
  const one = async (action: string, targetId?: string) => {
    const found = (await entries(action)).filter((e) => !targetId || e.target_id === targetId);
    assert.ok(found.length >= 1, `an entry ${action}${targetId ? ` for ${targetId}` : ""}`);
    return found[0]!;
  };
  const byKey = (e: Entry) => {
    assert.equal(e.actor.kind, "api_key");
    assert.equal(e.actor.id, adminKeyId);
    assert.equal(e.ip, "127.0.0.1");
  };

  before(async () => {
    server = await startServer();
    ada = await newUser(server.url, "ada@example.com", "ada-password-1", "Ada");
    const key = await ui(ada, "POST", "/api-key", { kind: "service", description: "audited" });
    admin = { url: server.url, apiKey: key.body.key };
    adminKeyId = key.body.id;
    const project = await call(admin, "POST", "/sessions", { name: "audited" });
    projectId = project.body.id;
  });
  after(async () => server?.stop());

  test("sign-in: success and failure, with the address, in the account's workspace", async () => {
    await signIn(server.url, "ada@example.com", "wrong-password");
    await signIn(server.url, "ada@example.com", "ada-password-1");
    const failure = await one("auth.sign_in.failure");
    assert.equal(failure.actor.label, "ada@example.com");
    assert.equal(failure.ip, "127.0.0.1");
    assert.deepEqual(failure.after, { provider: "credentials", reason: "bad_credentials" });
    const success = await one("auth.sign_in.success");
    assert.equal(success.actor.id, ada.userId);
    assert.equal(success.target_id, ada.userId);
  });

  test("members, invites and roles", async () => {
    const withdrawn = await call(admin, "POST", "/members", { email: "gone@example.com", role: "viewer" });
    assert.equal((await call(admin, "DELETE", `/members/invites/${withdrawn.body.id}`)).status, 200);
    const bo = await teammate(server, ada, "bo@example.com", "viewer");
    assert.equal((await call(admin, "PATCH", `/members/${bo.userId}`, { role: "annotator" })).status, 200);
    assert.equal((await call(admin, "DELETE", `/members/${bo.userId}`)).status, 200);
    const invited = await one("invite.create", withdrawn.body.id);
    byKey(invited);
    assert.deepEqual(invited.after, { email: "gone@example.com", role: "viewer" });
    assert.doesNotMatch(JSON.stringify(invited), /tli_/, "never the invitation token");
    await one("invite.delete", withdrawn.body.id);
    const accepted = await one("invite.accept", bo.userId);
    assert.equal(accepted.actor.id, bo.userId);
    const role = await one("member.role.update", bo.userId);
    assert.deepEqual([role.before, role.after], [{ role: "viewer" }, { role: "annotator" }]);
    await one("member.remove", bo.userId);
  });

  test("API keys: created and revoked, never the key", async () => {
    const made = await call(admin, "POST", "/api-key", { kind: "service", role: "viewer", description: "ci" });
    assert.equal((await call(admin, "DELETE", `/api-key/${made.body.id}`)).status, 200);
    const created = await one("api_key.create", made.body.id);
    byKey(created);
    assert.equal(created.after.prefix, made.body.prefix);
    await one("api_key.revoke", made.body.id);
    const everything = await call(admin, "GET", "/audit-logs/export?format=jsonl");
    assert.ok(!everything.body.includes(made.body.key) && !everything.body.includes(admin.apiKey), "no key in the trail");
  });

  test("model connections and prices", async () => {
    const connection = await call(admin, "POST", "/model-connections", {
      name: "judge",
      base_url: "https://models.example.com/v1",
      default_model: "m",
      api_key: "sk-very-secret",
    });
    assert.equal(connection.status, 201, JSON.stringify(connection.body));
    assert.equal((await call(admin, "PATCH", `/model-connections/${connection.body.id}`, { default_model: "m2" })).status, 200);
    assert.equal((await call(admin, "DELETE", `/model-connections/${connection.body.id}`)).status, 200);
    for (const verb of ["create", "update", "delete"]) byKey(await one(`model_connection.${verb}`, connection.body.id));
    assert.doesNotMatch(JSON.stringify(await entries("model_connection.*")), /sk-very-secret/);
    const price = await call(admin, "POST", "/model-prices", { name: "house", match_pattern: "^house$", prices: { input: 1, output: 2 } });
    assert.equal(price.status, 200, JSON.stringify(price.body));
    assert.equal((await call(admin, "DELETE", `/model-prices/${price.body.id}`)).status, 200);
    await one("model_price.create", price.body.id);
    await one("model_price.delete", price.body.id);
  });

  test("evaluators and rules", async () => {
    const evaluator = await call(admin, "POST", "/api/v1/platform/evaluators", {
      name: "exact",
      code_evaluator: { code: "function performEval(run) { return { key: 'x', score: 1 }; }", language: "javascript" },
    });
    assert.equal(evaluator.status, 200, JSON.stringify(evaluator.body));
    const evaluatorId = evaluator.body.evaluator.id;
    const rule = await call(admin, "POST", "/runs/rules", { display_name: "tag", session_id: projectId, evaluator_id: evaluatorId });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    assert.equal((await call(admin, "PATCH", `/runs/rules/${rule.body.id}`, { sampling_rate: 0.5 })).status, 200);
    assert.equal((await call(admin, "DELETE", `/runs/rules/${rule.body.id}`)).status, 200);
    assert.equal((await call(admin, "DELETE", `/api/v1/platform/evaluators/${evaluatorId}`)).status, 200);
    await one("evaluator.create", evaluatorId);
    await one("evaluator.delete", evaluatorId);
    await one("rule.create", rule.body.id);
    const updated = await one("rule.update", rule.body.id);
    assert.equal(updated.after.sampling_rate, 0.5);
    await one("rule.delete", rule.body.id);
  });

  test("webhooks, with their headers kept out", async () => {
    const hook = await call(admin, "POST", "/prompt-webhooks", { url: "https://hooks.example.com/x", headers: { "x-secret": "hush" } });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    assert.equal((await call(admin, "DELETE", `/prompt-webhooks/${hook.body.id}`)).status, 200);
    await one("webhook.create", hook.body.id);
    await one("webhook.delete", hook.body.id);
    assert.doesNotMatch(JSON.stringify(await entries("webhook.*")), /hush/);
  });

  test("alert rules: created, updated and deleted, their destinations' secrets kept out", async () => {
    const created = await call(admin, "POST", "/alerts", {
      name: "errors",
      session_id: projectId,
      metric: "error_rate",
      comparison: "gt",
      threshold: 0.5,
      window_minutes: 5,
      destinations: [{ kind: "pagerduty", routing_key: "pd-routing-secret" }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal((await call(admin, "PATCH", `/alerts/${created.body.id}`, { threshold: 0.2 })).status, 200);
    assert.equal((await call(admin, "DELETE", `/alerts/${created.body.id}`)).status, 200);
    byKey(await one("alert_rule.create", created.body.id));
    const updated = await one("alert_rule.update", created.body.id);
    assert.deepEqual([updated.before.threshold, updated.after.threshold], [0.5, 0.2]);
    await one("alert_rule.delete", created.body.id);
    assert.doesNotMatch(JSON.stringify(await entries("alert_rule.*")), /pd-routing-secret/);
  });

  test("retention: a project's and the audit log's own", async () => {
    assert.equal((await call(admin, "PATCH", `/sessions/${projectId}`, { trace_tier: "longlived" })).status, 200);
    const project = await one("project.retention.update", projectId);
    assert.equal(project.after.trace_tier, "longlived");
    assert.equal((await call(admin, "GET", "/audit-logs/settings")).body.retention_days, 365);
    assert.equal((await call(admin, "PATCH", "/audit-logs/settings", { retention_days: 90 })).body.retention_days, 90);
    const own = await one("audit_log.retention.update");
    assert.deepEqual([own.before, own.after], [{ retention_days: 365 }, { retention_days: 90 }]);
    assert.equal((await call(admin, "PATCH", "/audit-logs/settings", { retention_days: 0 })).status, 400);
  });

  test("projects, datasets and queues deleted, and SQL queries run", async () => {
    const runId = randomUUID();
    const now = new Date().toISOString();
    await call(admin, "POST", "/runs", {
      id: runId,
      name: "r",
      run_type: "chain",
      inputs: {},
      session_id: projectId,
      start_time: now,
      end_time: now,
    });
    await eventually(async () => (await call(admin, "GET", `/runs/${runId}`)).status === 200);
    const query = "SELECT id FROM runs WHERE start_time > now() - interval '1 day'";
    const sqlRun = await call(admin, "POST", "/api/v2/sql/query", { project_ids: [projectId], query });
    assert.equal(sqlRun.status, 200, JSON.stringify(sqlRun.body));
    const ran = await one("sql.query");
    assert.deepEqual([ran.after.query, ran.after.row_count], [query, 1]);

    const dataset = await call(admin, "POST", "/datasets", { name: "to delete" });
    assert.equal((await call(admin, "DELETE", `/datasets/${dataset.body.id}`)).status, 200);
    assert.equal((await one("dataset.delete", dataset.body.id)).before.name, "to delete");
    const queue = await call(admin, "POST", "/annotation-queues", { name: "to delete" });
    assert.equal((await call(admin, "DELETE", `/annotation-queues/${queue.body.id}`)).status, 200);
    await one("annotation_queue.delete", queue.body.id);
    assert.equal((await call(admin, "DELETE", `/sessions/${projectId}`)).status, 200);
    assert.equal((await one("project.delete", projectId)).before.name, "audited");
  });

  test("filters by actor, action and time; cursor pages; CSV and JSON Lines; admins only", async () => {
    const all: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call(admin, "GET", `/audit-logs?limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(page.status, 200);
      assert.ok(page.body.items.length <= 7);
      all.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.ok(all.length > 20);
    assert.equal(new Set(all.map((e) => e.id)).size, all.length, "no entry twice");
    assert.deepEqual(
      all.map((e) => e.at),
      [...all.map((e) => e.at)].sort().reverse(),
      "newest first",
    );
    const mine = await call(admin, "GET", `/audit-logs?actor=${adminKeyId}&limit=500`);
    assert.ok(mine.body.items.length > 5 && mine.body.items.every((e: Entry) => e.actor.id === adminKeyId));
    const family = await entries("api_key.*");
    assert.ok(family.length >= 3 && family.every((e) => e.action.startsWith("api_key.")));
    const future = await call(admin, "GET", `/audit-logs?start_time=${new Date(Date.now() + 3_600_000).toISOString()}`);
    assert.deepEqual(future.body.items, []);
    const past = await call(admin, "GET", `/audit-logs?end_time=2020-01-01T00:00:00Z`);
    assert.deepEqual(past.body.items, []);
    assert.equal((await call(admin, "GET", "/audit-logs?action=DROP TABLE")).status, 400);
    assert.equal((await call(admin, "GET", "/audit-logs?cursor=abc")).status, 400);

    const jsonl = await call(admin, "GET", "/audit-logs/export?format=jsonl&action=webhook.*");
    assert.equal(jsonl.status, 200);
    assert.match(jsonl.headers.get("content-type")!, /application\/x-ndjson/);
    const lines = (jsonl.body as string)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Entry);
    assert.deepEqual(lines.map((l) => l.action).sort(), ["webhook.create", "webhook.delete"]);
    const csv = await call(admin, "GET", "/audit-logs/export?format=csv&action=webhook.*");
    assert.match(csv.headers.get("content-type")!, /text\/csv/);
    assert.match(csv.headers.get("content-disposition")!, /attachment; filename="audit-log.csv"/);
    const [header, ...rows] = (csv.body as string).trim().split("\n");
    assert.equal(header, "id,at,actor_kind,actor_id,actor_label,ip,action,target_type,target_id,before,after");
    assert.equal(rows.length, 2);
    await one("audit_log.export");

    const member = await teammate(server, ada, "cy@example.com", "member");
    const refused = await call(member, "GET", "/audit-logs");
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /Only workspace admins/);
    assert.equal((await call(admin, "PUT", "/audit-logs", {})).status, 405);
  });
});
