import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("automation rules", () => {
  let server: RunningServer;
  let receiver: Server;
  let hookUrl: string;
  const received: { body: any; headers: Record<string, unknown> }[] = [];
  let projectId: string;
  let earlyRun: string;

  before(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        received.push({ body: JSON.parse(body), headers: req.headers });
        res.writeHead(req.url === "/down" ? 503 : 200).end("{}");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    server = await startServer({ env: { ALLOW_PRIVATE_EGRESS: "1", RULE_RETRY_BASE_MS: "100" } });
    earlyRun = await ingest("wanted");
    // The project's id, as the feedback on one of its runs names it.
    const probe = await call(server, "POST", "/feedback", { run_id: earlyRun, key: "probe" });
    projectId = probe.body.session_id;
    assert.ok(projectId);
  });
  after(async () => {
    await server?.stop();
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
  });

  async function ingest(name: string, runType = "chain"): Promise<string> {
    const id = randomUUID();
    const now = new Date().toISOString();
    const r = await call(server, "POST", "/runs/batch", {
      post: [
        {
          id,
          trace_id: id,
          name,
          run_type: runType,
          start_time: now,
          end_time: now,
          inputs: { q: name },
          outputs: { a: 1 },
          session_name: "e2e-rules",
        },
      ],
    });
    assert.equal(r.status, 202);
    await eventually(async () => (await call(server, "GET", `/runs/${id}/share`)).status === 200);
    return id;
  }

  const feedbackKeys = async (runId: string) =>
    (await call(server, "GET", `/feedback?run=${runId}`)).body.map((f: { key: string }) => f.key);

  test("a rule acts on matching runs as they are ingested: feedback and a webhook", async () => {
    const made = await call(server, "POST", "/runs/rules", {
      display_name: "wanted runs",
      session_id: projectId,
      filter: 'eq(name, "wanted")',
      sampling_rate: 1,
      add_feedback: { key: "auto_flag", score: 1 },
      webhooks: [{ url: `${hookUrl}/hook`, headers: { "x-hook-secret": "s3cret" } }],
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(made.body.webhooks[0].headers, { "x-hook-secret": "<redacted>" });
    const rule = made.body;

    const wanted = await ingest("wanted");
    const other = await ingest("unwanted");
    const hit = await eventually(async () => received.find((r) => r.body.run?.id === wanted));
    assert.equal(hit.body.rule_id, rule.id);
    assert.deepEqual(hit.body.run.inputs, { q: "wanted" });
    assert.equal(hit.headers["x-hook-secret"], "s3cret");
    await eventually(async () => (await feedbackKeys(wanted)).includes("auto_flag"));
    assert.ok(!(await feedbackKeys(other)).includes("auto_flag"));
    assert.ok(!received.some((r) => r.body.run?.id === other));
    assert.ok(!received.some((r) => r.body.run?.id === earlyRun), "runs from before the rule wait for a trigger");

    const triggered = await call(server, "POST", `/runs/rules/${rule.id}/trigger`);
    assert.equal(triggered.status, 200);
    assert.deepEqual([triggered.body.matched, triggered.body.actions], [1, { queued: 2 }]);
    await eventually(async () => received.some((r) => r.body.run?.id === earlyRun));
    assert.equal((await call(server, "POST", `/runs/rules/${rule.id}/trigger`)).body.matched, 0);

    const logs = await eventually(async () => {
      const found = await call(server, "GET", `/runs/rules/${rule.id}/logs`);
      return found.body.length === 4 ? found : null;
    });
    assert.equal(logs.status, 200);
    assert.deepEqual(new Set(logs.body.map((l: { run_id: string }) => l.run_id)), new Set([wanted, earlyRun]));
    assert.ok(logs.body.every((l: { outcome: string }) => l.outcome === "success"));
  });

  test("a failing webhook is retried with backoff under one delivery id, each failure logged", async () => {
    const rule = (
      await call(server, "POST", "/runs/rules", {
        display_name: "down",
        session_id: projectId,
        filter: `eq(id, "${earlyRun}")`,
        webhooks: [{ url: `${hookUrl}/down` }],
      })
    ).body;
    const triggered = await call(server, "POST", `/runs/rules/${rule.id}/trigger`);
    assert.deepEqual(triggered.body.actions, { queued: 1 });
    const logs = await eventually(async () => {
      const found = (await call(server, "GET", `/runs/rules/${rule.id}/logs`)).body;
      return found.length >= 3 ? found.reverse() : null;
    });
    assert.deepEqual(
      logs
        .slice(0, 3)
        .map((l: { action: string; outcome: string; attempts: number; status_code: number }) => [
          l.action,
          l.outcome,
          l.attempts,
          l.status_code,
        ]),
      [1, 2, 3].map((attempt) => ["webhook", "error", attempt, 503]),
    );
    const sent = received.filter((r) => r.body.rule_id === rule.id);
    assert.ok(sent.length >= 3);
    assert.equal(new Set(sent.map((r) => r.headers["x-tracelight-delivery"])).size, 1, "one delivery id across retries");
  });

  test("sampling rate 0 never acts; rules can be listed, changed and deleted", async () => {
    const rule = (
      await call(server, "POST", "/runs/rules", {
        display_name: "never",
        session_id: projectId,
        sampling_rate: 0,
        add_feedback: { key: "never" },
      })
    ).body;
    const run = await ingest("sampled-out");
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!(await feedbackKeys(run)).includes("never"));
    assert.equal((await call(server, "POST", `/runs/rules/${rule.id}/trigger`)).body.sampled, 0);

    const listed = await call(server, "GET", `/runs/rules?session_id=${projectId}`);
    assert.ok(listed.body.some((r: { id: string }) => r.id === rule.id));
    const patched = await call(server, "PATCH", `/runs/rules/${rule.id}`, { is_enabled: false, display_name: "off" });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.is_enabled, false);
    assert.equal((await call(server, "GET", `/runs/rules/${rule.id}`)).body.display_name, "off");
    assert.equal((await call(server, "DELETE", `/runs/rules/${rule.id}`)).status, 200);
    assert.equal((await call(server, "GET", `/runs/rules/${rule.id}`)).status, 404);
  });

  test("bad rules are 400, unknown ones 404", async () => {
    const base = { display_name: "x", session_id: projectId, add_feedback: { key: "k" } };
    const badFilter = await call(server, "POST", "/runs/rules", { ...base, filter: "eq(name," });
    assert.equal(badFilter.status, 400);
    assert.match(badFilter.body.detail, /position/);
    assert.equal((await call(server, "POST", "/runs/rules", { ...base, sampling_rate: 2 })).status, 400);
    assert.equal((await call(server, "POST", "/runs/rules", { ...base, add_feedback: null })).status, 400);
    assert.equal((await call(server, "POST", "/runs/rules", { ...base, webhooks: [{ url: "file:///etc/passwd" }] })).status, 400);
    assert.equal((await call(server, "POST", "/runs/rules", { ...base, session_id: randomUUID() })).status, 404);
    const unknown = randomUUID();
    assert.equal((await call(server, "PATCH", `/runs/rules/${unknown}`, { display_name: "y" })).status, 404);
    assert.equal((await call(server, "DELETE", `/runs/rules/${unknown}`)).status, 404);
    assert.equal((await call(server, "POST", `/runs/rules/${unknown}/trigger`)).status, 404);
    assert.equal((await call(server, "GET", `/runs/rules/${unknown}/logs`)).status, 404);
  });
});
