/**
 * Two people reviewing one queue at once, through the same tRPC API the review page uses (a real
 * tRPC client with each reviewer's session cookie): they never hold the same run, a run needing two
 * reviewers is done only after both, and a viewer of the workspace cannot draw runs.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createTRPCClient, httpLink } from "@trpc/client";
import { Client } from "langsmith";
import superjson from "superjson";
import type { AppRouter } from "../server/trpc/router";
import { cookieHeader, newUser, signIn, signUp, ui, type Browser } from "./harness/auth";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const trpcFor = (server: RunningServer, browser: Browser) =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: `${server.url}/api/trpc`, transformer: superjson, headers: () => ({ cookie: cookieHeader(browser.cookies) }) }),
    ],
  });

/** A user who accepted an invitation to `owner`'s workspace with this role. */
async function invited(server: RunningServer, owner: Browser, email: string, role: "member" | "viewer"): Promise<Browser> {
  const invite = await ui(owner, "POST", "/members", { email, role });
  assert.equal(invite.status, 201, JSON.stringify(invite.body));
  const account = await signUp(server.url, email, `${role}-password-1`, email.split("@")[0]);
  const browser = {
    url: server.url,
    cookies: await signIn(server.url, email, `${role}-password-1`),
    userId: account.user_id,
    workspaceId: owner.workspaceId,
  };
  assert.equal((await ui(browser, "POST", "/members/accept", { token: invite.body.token })).status, 200);
  return browser;
}

describe("two reviewers on one queue", () => {
  let server: RunningServer;
  let ada: Browser;
  let bo: Browser;
  let cy: Browser;
  let queueId: string;
  const runIds: string[] = [];

  before(async () => {
    server = await startServer();
    ada = await newUser(server.url, "ada@example.com", "ada-password-1", "Ada");
    bo = await invited(server, ada, "bo@example.com", "member");
    cy = await invited(server, ada, "cy@example.com", "viewer");
    const key = await ui(ada, "POST", "/api-key", { kind: "service", description: "sdk" });
    const client = new Client({ apiUrl: server.url, apiKey: key.body.key, autoBatchTracing: false });
    const project = await client.createProject({ projectName: "pairs" });
    for (let i = 0; i < 6; i++) {
      const id = randomUUID();
      runIds.push(id);
      await client.createRun({
        id,
        name: `run-${i}`,
        run_type: "chain",
        inputs: { i },
        outputs: { o: i },
        project_name: project.name,
        start_time: Date.UTC(2026, 10, 26, 4, 0, i),
      } as never);
    }
    await eventually(async () => (await call({ url: server.url, apiKey: key.body.key }, "GET", `/runs/${runIds[5]}`)).status === 200);
    const queue = await client.createAnnotationQueue({ name: "Two each" });
    queueId = queue.id;
    await client.addRunsToAnnotationQueue(
      queueId,
      runIds.map((runId, i) => ({ runId, sessionId: project.id, startTime: Date.UTC(2026, 10, 26, 4, 0, i) })),
    );
    await client.annotationQueues.update(queueId, { num_reviewers_per_item: 2 });
  });
  after(async () => server?.stop());

  test("drawing at once, they hold different runs; each run is done once both completed it", async () => {
    const [a, b] = [trpcFor(server, ada), trpcFor(server, bo)];
    const workspaceId = ada.workspaceId;
    const draw = (t: typeof a) => t.queues.review.query({ workspaceId, queueId });
    const [first, second] = await Promise.all([draw(a), draw(b)]);
    assert.ok(first && second);
    assert.notEqual(first.item_id, second.item_id, "two reviewers never hold the same run");
    assert.equal((await draw(a))!.item_id, first.item_id, "drawing again gives back the run one holds");

    // Each submits the run they hold, then the other's: a run is done only after both.
    await a.queues.submit.mutate({ workspaceId, queueId, itemId: first.item_id, answers: [{ key: "ok", score: 1 }] });
    let overview = await a.queues.get.query({ workspaceId, queueId });
    assert.equal(overview.progress.completed, 0, "one of two reviewers");
    await b.queues.submit.mutate({ workspaceId, queueId, itemId: second.item_id, answers: [{ key: "ok", score: 0 }] });
    const done = await b.queues.submit.mutate({ workspaceId, queueId, itemId: first.item_id, answers: [{ key: "ok", score: 1 }] });
    assert.equal(done.done, true);
    overview = await a.queues.get.query({ workspaceId, queueId });
    assert.equal(overview.progress.completed, 1);
    assert.deepEqual(overview.progress.reviewers.map((r) => [r.name, r.completed]).sort(), [
      ["Ada", 1],
      ["bo", 2],
    ]);
    // Ada sees Bo's answer on the run she reviewed; the SDK's classic listing agrees.
    const again = await a.queues.review.query({ workspaceId, queueId, itemId: first.item_id });
    assert.deepEqual(
      again!.others.map((o) => [o.author, o.key, o.score]),
      [["bo", "ok", 1]],
    );

    // Six draws in parallel between them: all different, and none of those either already did.
    const draws = await Promise.all([a, b, a, b, a, b].map((t) => draw(t)));
    const held = new Map<string, string>();
    for (const [i, d] of draws.entries()) if (d) held.set(d.item_id, i % 2 ? "bo" : "ada");
    const aHolds = draws.filter((_, i) => i % 2 === 0).map((d) => d!.item_id);
    assert.equal(new Set(aHolds).size, 1, "a reviewer holds one run at a time");
    assert.notEqual(aHolds[0], draws[1]!.item_id);
    assert.notEqual(aHolds[0], first.item_id, "never a run one already reviewed");
  });

  test("a viewer reads the queue but cannot draw runs or submit", async () => {
    const c = trpcFor(server, cy);
    const workspaceId = ada.workspaceId;
    assert.equal((await c.queues.get.query({ workspaceId, queueId })).name, "Two each");
    await assert.rejects(c.queues.review.query({ workspaceId, queueId }), /viewer/);
    await assert.rejects(c.queues.submit.mutate({ workspaceId, queueId, itemId: randomUUID(), answers: [] }), /viewer/);
  });
});
