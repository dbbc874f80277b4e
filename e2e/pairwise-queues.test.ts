/**
 * Pairwise annotation queues through the real langsmith client (create with queue_type "pairwise",
 * populate from two experiments: each example's runs paired), the reviewer's A / B / equal choices
 * through the review page's tRPC API recorded as binary feedback on both runs; reviewer assignment:
 * an annotator lists only its queues; a review sent with a service key is the key's (named by its
 * description), one in the UI the person's; reviewer_access_mode "assigned"; a rule cannot feed a
 * pairwise queue.
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

describe("pairwise annotation queues", () => {
  let server: RunningServer;
  let ada: Browser;
  let key: string;
  let client: Client;
  const runsOf: Record<"base" | "cand", string[]> = { base: [], cand: [] };
  let experiments: string[];

  before(async () => {
    server = await startServer();
    ada = await newUser(server.url, "ada@example.com", "ada-password-1", "Ada");
    key = (await ui(ada, "POST", "/api-key", { kind: "service", description: "sdk" })).body.key;
    client = new Client({ apiUrl: server.url, apiKey: key, autoBatchTracing: false });
    const dataset = await client.createDataset("questions");
    const examples = await client.createExamples({
      datasetId: dataset.id,
      inputs: [{ q: "capital of France?" }, { q: "2 + 2?" }, { q: "largest planet?" }],
      outputs: [{ a: "Paris" }, { a: "4" }, { a: "Jupiter" }],
    });
    experiments = [];
    for (const name of ["base", "cand"] as const) {
      const project = await client.createProject({ projectName: `exp-${name}`, referenceDatasetId: dataset.id });
      experiments.push(project.id);
      // The candidate ran the examples in another order: pairs follow examples, not time.
      const order = name === "base" ? examples : [...examples].reverse();
      for (const [i, ex] of order.entries()) {
        const id = randomUUID();
        runsOf[name].push(id);
        await client.createRun({
          id,
          name: `${name}-answer`,
          run_type: "chain",
          inputs: ex.inputs,
          outputs: { a: `${name} says ${String(ex.outputs?.a)}` },
          project_name: project.name,
          reference_example_id: ex.id,
          start_time: Date.UTC(2026, 10, 27, 9, 0, i),
          end_time: Date.UTC(2026, 10, 27, 9, 0, i + 1),
        } as never);
      }
    }
    await eventually(async () => (await call({ url: server.url, apiKey: key }, "GET", `/runs/${runsOf.cand[2]}`)).status === 200);
  });
  after(async () => server?.stop());

  test("a pairwise queue pairs two experiments' runs by example; the reviewer's choices are binary feedback on both runs", async () => {
    const created = (await client.annotationQueues.annotationQueues({
      name: "base vs cand",
      queue_type: "pairwise",
      rubric_instructions: "Which answer is **more correct**?",
      rubric_items: [{ feedback_key: "correctness" }, { feedback_key: "tone" }],
    } as never)) as { id: string; queue_type: string };
    assert.equal(created.queue_type, "pairwise");
    await client.annotationQueues.populate({ queue_id: created.id, session_ids: experiments });
    const read = await client.readAnnotationQueue(created.id);
    assert.equal((read as unknown as { queue_type: string }).queue_type, "pairwise");
    const pairwise = await client.annotationQueues.retrieveAnnotationQueues({ queue_type: "pairwise" });
    assert.deepEqual(
      pairwise.items.map((q) => [q.name, q.total_runs]),
      [["base vs cand", 3]],
    );
    assert.equal((await client.annotationQueues.retrieveAnnotationQueues({ queue_type: "single" })).items.length, 0);
    const items = (await call({ url: server.url, apiKey: key }, "GET", `/annotation-queues/${created.id}/runs`)).body as {
      id: string;
      paired_run_id: string | null;
    }[];
    assert.equal(items.length, 3);
    // Each listed item is a pair: run A (the base run) with its run B (the candidate's run of that example).
    assert.deepEqual(
      items.map((i) => [i.id, i.paired_run_id]).sort(),
      runsOf.base.map((id, i) => [id, runsOf.cand[runsOf.cand.length - 1 - i]]).sort(),
    );

    // A rule adds single runs: it cannot feed a pairwise queue.
    const rule = await call({ url: server.url, apiKey: key }, "POST", "/runs/rules", {
      display_name: "to the pairwise queue",
      session_id: experiments[0],
      add_to_annotation_queue_id: created.id,
    });
    assert.equal(rule.status, 400);
    assert.match(rule.body.detail, /"base vs cand" is a pairwise queue: it takes pairs of runs/);

    // A single run cannot enter a pairwise queue; a pair given by hand can.
    const single = await call({ url: server.url, apiKey: key }, "POST", `/annotation-queues/${created.id}/runs`, [runsOf.base[0]]);
    assert.equal(single.status, 400);
    assert.match(single.body.detail, /paired_run_id/);

    const t = trpcFor(server, ada);
    const workspaceId = ada.workspaceId;
    const drawn = await t.queues.review.query({ workspaceId, queueId: created.id });
    assert.ok(drawn && drawn.paired_run, "the reviewer gets two runs");
    assert.equal(drawn.queue_type, "pairwise");
    assert.equal(drawn.run.reference_example_id, drawn.paired_run.reference_example_id, "one example's two runs");
    assert.deepEqual([drawn.run.session_id, drawn.paired_run.session_id], experiments, "run A from the first experiment");
    await assert.rejects(
      t.queues.submit.mutate({
        workspaceId,
        queueId: created.id,
        itemId: drawn.item_id,
        preferences: [{ key: "correctness", choice: "A" }],
      }),
      /"tone"/,
      "every rubric question needs a choice",
    );
    const done = await t.queues.submit.mutate({
      workspaceId,
      queueId: created.id,
      itemId: drawn.item_id,
      preferences: [
        { key: "correctness", choice: "A" },
        { key: "tone", choice: "equal" },
      ],
      comment: "A names the right city",
    });
    assert.equal(done.done, true);
    const feedback = await Promise.all(
      [drawn.run.id, drawn.paired_run.id].map(async (runId) => {
        const all = [];
        for await (const f of client.listFeedback({ runIds: [runId] })) all.push(f);
        return all.sort((a, b) => a.key.localeCompare(b.key)).map((f) => [f.key, f.score, f.value]);
      }),
    );
    assert.deepEqual(feedback, [
      [
        ["correctness", 1, "better"],
        ["note", null, null],
        ["tone", 1, "equal"],
      ],
      [
        ["correctness", 0, "worse"],
        ["note", null, null],
        ["tone", 1, "equal"],
      ],
    ]);
    const again = await t.queues.review.query({ workspaceId, queueId: created.id, itemId: drawn.item_id });
    assert.deepEqual(
      again!.my_preferences.map((p) => [p.key, p.choice]).sort(),
      [
        ["correctness", "A"],
        ["tone", "equal"],
      ],
      "the reviewer's choices read back",
    );
  });

  test("an annotator lists only its queues; a service key's review is the key's, a UI review the person's", async () => {
    const email = "ann@example.com";
    const invite = await ui(ada, "POST", "/members", { email, role: "annotator" });
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    const account = await signUp(server.url, email, "annotator-password-1", "Ann");
    const ann: Browser = {
      url: server.url,
      cookies: await signIn(server.url, email, "annotator-password-1"),
      userId: account.user_id,
      workspaceId: ada.workspaceId,
    };
    assert.equal((await ui(ann, "POST", "/members/accept", { token: invite.body.token })).status, 200);
    const mine = await client.createAnnotationQueue({ name: "for Ann" });
    await client.createAnnotationQueue({ name: "not for Ann" });
    await client.addRunsToAnnotationQueue(mine.id, [runsOf.base[0], runsOf.base[1]]);

    const [a, t] = [trpcFor(server, ann), trpcFor(server, ada)];
    const workspaceId = ada.workspaceId;
    assert.deepEqual(await a.queues.list.query({ workspaceId }), [], "assigned to nothing yet");
    const choices = await t.queues.reviewers.query({ workspaceId, queueId: mine.id });
    assert.deepEqual(choices.map((c) => [c.name, c.role, c.assigned]).sort(), [
      ["Ada", "admin", false],
      ["Ann", "annotator", false],
    ]);
    await t.queues.setReviewers.mutate({ workspaceId, queueId: mine.id, userIds: [ann.userId] });
    assert.deepEqual(
      (await a.queues.list.query({ workspaceId })).map((q) => q.name),
      ["for Ann"],
    );
    assert.equal((await t.queues.list.query({ workspaceId })).length, 3, "an admin sees every queue");
    await assert.rejects(a.queues.setReviewers.mutate({ workspaceId, queueId: mine.id, userIds: [] }), /annotator|not allowed|may not/i);

    // Ann reviews one run in the UI; the service key marks the other done through the SDK's status path.
    const drawn = await a.queues.review.query({ workspaceId, queueId: mine.id });
    await a.queues.submit.mutate({ workspaceId, queueId: mine.id, itemId: drawn!.item_id, answers: [{ key: "ok", score: 1 }] });
    const items = (await call({ url: server.url, apiKey: key }, "GET", `/annotation-queues/${mine.id}/runs`)).body as {
      id: string;
      queue_run_id?: string;
    }[];
    const other = items.find((i) => (i.queue_run_id ?? i.id) !== drawn!.item_id)!;
    const status = await call({ url: server.url, apiKey: key }, "POST", `/annotation-queues/status/${other.queue_run_id ?? other.id}`, {
      status: "completed",
    });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    const overview = await t.queues.get.query({ workspaceId, queueId: mine.id });
    assert.deepEqual(overview.progress.reviewers.map((r) => [r.name, r.completed]).sort(), [
      ["Ann", 1],
      ["sdk (API key)", 1],
    ]);
    const fromQueue = [];
    for await (const f of client.listFeedback({ runIds: [drawn!.run.id] })) {
      const meta = (f.feedback_source as { metadata?: { user_name?: string; annotation_queue_id?: string } }).metadata;
      if (meta?.annotation_queue_id === mine.id) fromQueue.push(meta.user_name);
    }
    assert.deepEqual(fromQueue, ["Ann"], "the UI's answer is signed by the person");
  });
  test("reviewer_access_mode through the client: stored, answered with the assigned reviewers, and only they review", async () => {
    const created = await client.annotationQueues.annotationQueues({ name: "assigned only", reviewer_access_mode: "assigned" });
    assert.deepEqual([created.reviewer_access_mode, created.assigned_reviewers], ["assigned", []]);
    await client.addRunsToAnnotationQueue(created.id, [runsOf.base[2]]);
    const t = trpcFor(server, ada);
    const workspaceId = ada.workspaceId;
    await assert.rejects(t.queues.review.query({ workspaceId, queueId: created.id }), /only by its assigned reviewers/);
    const [item] = (await call({ url: server.url, apiKey: key }, "GET", `/annotation-queues/${created.id}/runs`)).body as {
      queue_run_id: string;
    }[];
    const byKey = await call({ url: server.url, apiKey: key }, "POST", `/annotation-queues/status/${item.queue_run_id}`, {
      status: "completed",
    });
    assert.equal(byKey.status, 403, "a service key is not an assigned reviewer");
    assert.match(byKey.body.detail, /assigned reviewers/);

    await t.queues.setReviewers.mutate({ workspaceId, queueId: created.id, userIds: [ada.userId] });
    const read = await client.annotationQueues.retrieve(created.id);
    assert.equal(read.reviewer_access_mode, "assigned");
    assert.deepEqual(read.assigned_reviewers, [{ id: ada.userId, email: "ada@example.com", name: "Ada" }]);
    const listed = await client.annotationQueues.retrieveAnnotationQueues({ ids: [created.id] });
    assert.deepEqual(
      listed.items[0].assigned_reviewers?.map((r) => r.name),
      ["Ada"],
    );
    assert.ok(await t.queues.review.query({ workspaceId, queueId: created.id }), "an assigned reviewer draws the run");

    await client.annotationQueues.update(created.id, { reviewer_access_mode: "any" });
    assert.equal((await client.annotationQueues.retrieve(created.id)).reviewer_access_mode, "any");
    const open = await call({ url: server.url, apiKey: key }, "POST", `/annotation-queues/status/${item.queue_run_id}`, {
      status: "completed",
    });
    assert.equal(open.status, 200, JSON.stringify(open.body));
    const bad = await call({ url: server.url, apiKey: key }, "PATCH", `/annotation-queues/${created.id}`, { reviewer_access_mode: "some" });
    assert.equal(bad.status, 400);
  });
});
