/**
 * The access policy on a running server: every method of every route file (found by
 * e2e/harness/routes.ts, so a new route is walked without being listed here) called with a
 * viewer's and an annotator's personal key. Viewers are refused every change; annotators every
 * change but feedback and reviewing the queues assigned to them.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { newUser, ui, type Browser } from "./harness/auth";
import { call, eventually } from "./harness/http";
import { routeMethods, type RouteMethod } from "./harness/routes";
import { startServer, type RunningServer } from "./harness/server";
import { teammate } from "./harness/team";

/**
 * The routes classified `read` that answer a POST or DELETE: reads sent as POST (queries, charts,
 * exports), and what any member does for themselves (their personal keys, leaving the workspace,
 * liking a prompt, their private saved views — shared ones the views service refuses to viewers).
 * Adding one here is a decision the review sees.
 */
const READS_BY_POST = [
  "DELETE /api/v1/api-key/{keyId}",
  "DELETE /api/v1/members/{userId}",
  "DELETE /api/v1/views/{viewId}",
  "PATCH /api/v1/views/{viewId}",
  "POST /api/v1/annotation-queues/{queueId}/export",
  "POST /api/v1/api-key",
  "POST /api/v1/charts",
  "POST /api/v1/charts/sets/{setId}/render",
  "POST /api/v1/datasets/{datasetId}/runs",
  "POST /api/v1/likes/{owner}/{repo}",
  "POST /api/v1/runs/group",
  "POST /api/v1/runs/query",
  "POST /api/v1/runs/stats",
  "POST /api/v1/sessions/{sessionId}/charts",
  "POST /api/v1/sessions/{sessionId}/dashboard",
  "POST /api/v1/views",
  "POST /api/v2/datasets/{datasetId}/experiment-runs",
  "POST /api/v2/runs/query",
  "POST /api/v2/sql/query",
  "POST /api/v2/threads/query",
  "POST /api/v2/threads/stats",
  "POST /api/v2/traces/query",
];

const concrete = (path: string) => path.replace(/\{(\.\.\.)?\w+\}/g, () => randomUUID());
const label = (r: RouteMethod) => `${r.method} ${r.path}`;

describe("every route for every role", () => {
  let server: RunningServer;
  let ada: Browser;
  let admin: { url: string; apiKey: string };
  let viewer: { url: string; apiKey: string };
  let annotator: Browser & { apiKey: string };
  let routes: RouteMethod[];
  let runId: string;
  let assignedItem: string;
  let otherItem: string;

  const send = (who: { url: string; apiKey: string }, r: RouteMethod) =>
    call(who, r.method, concrete(r.path), r.method === "GET" || r.method === "DELETE" ? undefined : {});

  before(async () => {
    server = await startServer();
    routes = await routeMethods();
    ada = await newUser(server.url, "ada@example.com", "ada-password-1", "Ada");
    const service = await ui(ada, "POST", "/api-key", { kind: "service", description: "setup" });
    admin = { url: server.url, apiKey: service.body.key };
    viewer = await teammate(server, ada, "vi@example.com", "viewer");
    annotator = await teammate(server, ada, "an@example.com", "annotator");

    runId = randomUUID();
    const posted = await call(admin, "POST", "/runs", {
      id: runId,
      name: "answer",
      run_type: "chain",
      inputs: { q: 1 },
      outputs: { a: 2 },
      session_name: "reviewed",
      start_time: new Date().toISOString(),
      end_time: new Date().toISOString(),
    });
    assert.equal(posted.status, 202, JSON.stringify(posted.body));
    await eventually(async () => (await call(admin, "GET", `/runs/${runId}`)).status === 200);
    const item = async (name: string) => {
      const queue = await call(admin, "POST", "/annotation-queues", { name });
      assert.equal(queue.status, 200, JSON.stringify(queue.body));
      assert.equal((await call(admin, "POST", `/annotation-queues/${queue.body.id}/runs`, [runId])).status, 200);
      const [row] = (await call(admin, "GET", `/annotation-queues/${queue.body.id}/runs`)).body;
      return { queueId: queue.body.id as string, itemId: row.queue_run_id as string };
    };
    const assigned = await item("assigned");
    const other = await item("not assigned");
    const put = await call(admin, "PUT", `/annotation-queues/${assigned.queueId}/reviewers`, { user_ids: [annotator.userId] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    [assignedItem, otherItem] = [assigned.itemId, other.itemId];
  });
  after(async () => server?.stop());

  test("the routes that change data with read access are the known reads-by-POST and self-service ones", () => {
    const found = routes.filter((r) => r.classification === "read" && r.method !== "GET").map(label);
    assert.deepEqual(found.sort(), [...READS_BY_POST].sort());
  });

  test("a viewer's key is refused on every write, feedback, review and admin route", async () => {
    const changing = routes.filter((r) => ["write", "admin", "feedback", "review"].includes(r.classification!));
    assert.ok(changing.length > 90, `${changing.length} routes`);
    const let_through: string[] = [];
    for (const r of changing) {
      const answer = await send(viewer, r);
      if (answer.status !== 403 || !/viewer/.test(answer.body?.detail)) let_through.push(`${label(r)} → ${answer.status}`);
    }
    assert.deepEqual(let_through, []);
  });

  test("an annotator's key is refused on every write and admin route, and not on feedback or review", async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((r) => ["write", "admin", "feedback", "review"].includes(r.classification!))) {
      const answer = await send(annotator, r);
      const refused = answer.status === 403;
      const shouldRefuse = r.classification === "write" || r.classification === "admin";
      if (refused !== shouldRefuse) wrong.push(`${label(r)} → ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    assert.deepEqual(wrong, []);
  });

  test("viewers and annotators read every read route without a refusal", async () => {
    const refused: string[] = [];
    for (const r of routes.filter((r) => r.classification === "read" && r.method === "GET"))
      for (const who of [viewer, annotator]) {
        const answer = await send(who, r);
        if (answer.status === 403) refused.push(`${label(r)} → ${JSON.stringify(answer.body)}`);
      }
    assert.deepEqual(refused, []);
  });

  test("an annotator leaves feedback and reviews its assigned queue, and only that one", async () => {
    const feedback = await call(annotator, "POST", "/feedback", { run_id: runId, key: "helpful", score: 1 });
    assert.equal(feedback.status, 200, JSON.stringify(feedback.body));
    const mine = await call(annotator, "POST", `/annotation-queues/status/${assignedItem}`, { status: "completed" });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const theirs = await call(annotator, "POST", `/api/v1/platform/annotation-queues/items/${otherItem}/status`, { status: "completed" });
    assert.equal(theirs.status, 403);
    assert.match(theirs.body.detail, /annotator.*not assigned to you/);
    assert.equal((await call(viewer, "POST", "/feedback", { run_id: runId, key: "helpful", score: 1 })).status, 403);
    // An annotator changes its own feedback only: not a colleague's left through the SDK.
    const others = await call(admin, "POST", "/feedback", { run_id: runId, key: "helpful", score: 0 });
    const changed = await call(annotator, "PATCH", `/feedback/${others.body.id}`, { score: 1 });
    assert.equal(changed.status, 403, JSON.stringify(changed.body));
    assert.equal((await call(annotator, "DELETE", `/feedback/${others.body.id}`)).status, 403);
    assert.equal((await call(admin, "PATCH", `/feedback/${others.body.id}`, { score: 1 })).status, 200);
    assert.equal((await call(annotator, "POST", "/datasets", { name: "nope" })).status, 403);
  });
});
