import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { newUser, ui } from "./harness/auth";
import { call, collect, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("annotation queues through the langsmith client (classic methods and the resources API)", () => {
  let server: RunningServer;
  let client: Client;
  let projectId: string;
  const runs: { id: string; start: string }[] = [];

  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
    const project = await client.createProject({ projectName: `review-${randomUUID().slice(0, 6)}` });
    projectId = project.id;
    for (let i = 0; i < 6; i++) {
      const run = { id: randomUUID(), start: new Date(Date.UTC(2026, 10, 26, 1, 0, i)).toISOString() };
      runs.push(run);
      await client.createRun({
        id: run.id,
        name: `answer-${i}`,
        run_type: "llm",
        inputs: { messages: [{ role: "user", content: `question ${i}` }] },
        outputs: { choices: [{ message: { role: "assistant", content: `answer ${i}` } }] },
        project_name: project.name,
        start_time: run.start,
        end_time: new Date(Date.parse(run.start) + 300).toISOString(),
      } as never);
    }
    await eventually(async () => (await call(server, "GET", `/runs/${runs[5].id}`)).status === 200);
  });
  after(async () => server?.stop());

  test("classic client: create with a rubric, read, list, update, add by id and by key, read, size, delete", async () => {
    await client.createFeedbackConfig({ feedbackKey: "correct", feedbackConfig: { type: "continuous", min: 0, max: 1 } } as never);
    const created = await client.createAnnotationQueue({
      name: "Support answers",
      description: "Check the bot's replies",
      rubricInstructions: "Is the answer right?",
      rubricItems: [{ feedback_key: "correct", description: "Right or wrong", is_required: true }],
    });
    assert.equal(created.name, "Support answers");
    assert.equal(created.tenant_id, server.workspaceId);

    const read = await client.readAnnotationQueue(created.id);
    assert.equal(read.rubric_instructions, "Is the answer right?");
    assert.equal(read.rubric_items?.[0].feedback_key, "correct");
    assert.deepEqual(read.rubric_items?.[0].feedback_config?.feedback_config, { type: "continuous", min: 0, max: 1 });

    await client.updateAnnotationQueue(created.id, { name: "Support answers (v2)", rubricInstructions: "Right, kind?" });
    assert.equal((await client.readAnnotationQueue(created.id)).name, "Support answers (v2)");
    assert.deepEqual(
      (await collect(client.listAnnotationQueues({ queueIds: [created.id] }))).map((q) => q.name),
      ["Support answers (v2)"],
    );
    assert.ok((await collect(client.listAnnotationQueues({ nameContains: "answers (V2" }))).some((q) => q.id === created.id));
    assert.equal((await collect(client.listAnnotationQueues({ name: "nope" }))).length, 0);

    await client.addRunsToAnnotationQueue(created.id, [runs[0].id, runs[1].id]);
    await client.addRunsToAnnotationQueue(created.id, [
      { runId: runs[2].id, sessionId: projectId, startTime: runs[2].start },
      { runId: runs[0].id, sessionId: projectId, startTime: new Date(runs[0].start) },
    ]);
    assert.deepEqual(await client.getSizeFromAnnotationQueue(created.id), { size: 3 });
    const second = await client.getRunFromAnnotationQueue(created.id, 1);
    assert.equal(second.id, runs[1].id);
    assert.equal(second.name, "answer-1");
    assert.ok(second.added_at);
    const listed = await collect(client.listRunsFromAnnotationQueue(created.id, { status: "needs_my_review" }));
    assert.deepEqual(
      listed.map((r) => r.id),
      [runs[0].id, runs[1].id, runs[2].id],
    );
    await assert.rejects(client.getRunFromAnnotationQueue(created.id, 7), /404|not found/i);
    await assert.rejects(client.addRunsToAnnotationQueue(created.id, [randomUUID()]), /404|not found/i);

    await client.deleteRunFromAnnotationQueue(created.id, runs[1].id);
    assert.deepEqual(await client.getSizeFromAnnotationQueue(created.id), { size: 2 });
    await client.deleteAnnotationQueue(created.id);
    await assert.rejects(client.readAnnotationQueue(created.id), /404|not found/i);
  });

  test("resources API: queues, runs and platform items, statuses, counts, placement, export, populate", async () => {
    const aq = client.annotationQueues;
    const queue = await aq.annotationQueues({ name: "Resources", num_reviewers_per_item: 1, rubric_items: [{ feedback_key: "tone" }] });
    assert.equal(queue.queue_type, "single");
    assert.equal((await aq.retrieve(queue.id)).rubric_items?.[0].feedback_key, "tone");
    await aq.update(queue.id, { description: "tone of voice", reservation_minutes: 3 });
    const again = await aq.retrieve(queue.id);
    assert.equal(again.description, "tone of voice");
    assert.equal(again.reservation_minutes, 3);
    const page = await aq.retrieveAnnotationQueues({ name_contains: "resour", limit: 10 });
    assert.deepEqual(
      page.items.map((q) => [q.id, q.total_runs]),
      [[queue.id, 0]],
    );

    const added = await aq.runs.create(queue.id, { body: [runs[0].id, runs[1].id] });
    assert.deepEqual(
      added.map((a) => a.run_id),
      [runs[0].id, runs[1].id],
    );
    const byKey = await aq.runs.createByKey(queue.id, { body: [{ run_id: runs[2].id, session_id: projectId, start_time: runs[2].start }] });
    assert.equal(byKey[0].queue_id, queue.id);
    const items = await aq.items.create(queue.id, { items: [{ run_id: runs[3].id, session_id: projectId, start_time: runs[3].start }] });
    assert.equal(items.items?.[0].item_type, "RUN");
    assert.deepEqual(
      (await aq.retrieveQueues(runs[0].id)).map((q) => q.id),
      [queue.id],
    );

    const listed = await aq.runs.list(queue.id, { status: "needs_my_review", limit: 10 });
    assert.deepEqual(
      listed.map((r) => r.id),
      runs.slice(0, 4).map((r) => r.id),
    );
    assert.equal((await aq.retrieveRun(2, { queue_id: queue.id })).id, runs[2].id);
    assert.deepEqual(await aq.retrieveSize(queue.id), { size: 4 });
    assert.deepEqual(await aq.retrieveTotalSize(queue.id), { size: 4 });

    // Completing: by the classic status path and by the item's status.
    await aq.createRunStatus(listed[0].queue_run_id, { status: "completed" });
    const status = await aq.items.createStatus(byKey[0].id, { status: "completed" });
    assert.equal(status.is_archived, true);
    assert.deepEqual(await aq.retrieveTotalArchived(queue.id), { size: 2 });
    assert.deepEqual(await aq.items.retrieveCount(queue.id, { status: "archived" }), { count: 2 });
    assert.deepEqual(await aq.items.retrieveCount(queue.id, { status: "needs_my_review" }), { count: 2 });
    assert.deepEqual(await aq.retrieveSize(queue.id, { status: "completed" }), { size: 2 });
    const done = await aq.runs.list(queue.id, { archived: true });
    assert.deepEqual(
      done.map((r) => [r.id, r.completed_by?.length]).sort(),
      [
        [runs[0].id, 1],
        [runs[2].id, 1],
      ].sort(),
    );

    // Taking a completion back opens the run again; completing it again closes it.
    await aq.createRunStatus(listed[0].queue_run_id, { status: "needs_review" });
    assert.deepEqual(await aq.retrieveTotalArchived(queue.id), { size: 1 });
    await aq.createRunStatus(listed[0].queue_run_id, { status: "completed" });
    assert.deepEqual(await aq.retrieveTotalArchived(queue.id), { size: 2 });

    // Items page by page (the client follows next_cursor), then where one sits.
    const all: string[] = [];
    for await (const item of aq.items.list(queue.id, { status: "needs_my_review", page_size: 1 })) all.push(item.run_id!);
    assert.deepEqual(all, [runs[1].id, runs[3].id]);
    const fourth = items.items![0].id!;
    assert.deepEqual(await aq.items.retrievePlacement(fourth, { queue_id: queue.id }), {
      section: "needs_my_review",
      position: 1,
      item_type: "RUN",
      cursor: (await aq.items.list(queue.id, { status: "needs_my_review", page_size: 1 })).next_cursor,
    });
    const moved = await aq.items.update(fourth, { queue_id: queue.id, added_at: "2020-01-01T00:00:00Z" });
    assert.equal(moved.added_at, "2020-01-01T00:00:00.000000Z");
    await aq.runs.update(listed[1].queue_run_id, { queue_id: queue.id, last_reviewed_time: "2026-11-26T02:00:00Z" });
    assert.equal((await aq.runs.list(queue.id, { status: "needs_my_review" }))[0].id, runs[3].id, "moved to the front");

    // Export of the done runs with their feedback, as JSON and CSV.
    await client.createFeedback(runs[0].id, "tone", { score: 1, comment: "kind" });
    const exported = (await aq.export(queue.id, { include_annotator_detail: true })) as { runs: any[] };
    assert.deepEqual(exported.runs.map((r) => r.run_id).sort(), [runs[0].id, runs[2].id].sort());
    assert.equal(exported.runs.find((r) => r.run_id === runs[0].id).feedback[0].key, "tone");
    const csv = await fetch(`${server.url}/api/v1/annotation-queues/${queue.id}/export`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ format: "csv" }),
    });
    assert.match(csv.headers.get("content-type")!, /text\/csv/);
    const lines = (await csv.text()).trim().split("\n");
    assert.match(lines[0], /^run_id,name,inputs,outputs,added_at,completed_by,feedback\.tone$/);
    assert.equal(lines.length, 3);

    // Removing: one, several, then all but one.
    await aq.runs.deleteQueue(listed[3].queue_run_id, { queue_id: queue.id });
    await aq.items.deleteAll(queue.id, { item_ids: [listed[1].queue_run_id] });
    await aq.runs.deleteAll(queue.id, { delete_all: true, exclude_run_ids: [runs[0].id] });
    assert.deepEqual(await aq.retrieveTotalSize(queue.id), { size: 1 });

    // Populate from an experiment: its root runs join the queue.
    const dataset = await client.createDataset(`reviewed-${randomUUID().slice(0, 6)}`);
    const experiment = await client.createProject({ projectName: `exp-${randomUUID().slice(0, 6)}`, referenceDatasetId: dataset.id });
    const expRun = randomUUID();
    await client.createRun({ id: expRun, name: "target", run_type: "chain", inputs: { q: 1 }, project_name: experiment.name } as never);
    await eventually(async () => (await call(server, "GET", `/runs/${expRun}`)).status === 200);
    await aq.populate({ queue_id: queue.id, session_ids: [experiment.id] });
    assert.deepEqual(await aq.retrieveTotalSize(queue.id), { size: 2 });
    // Or a project's runs matching a filter.
    const matching = await call(server, "POST", "/annotation-queues/populate", {
      queue_id: queue.id,
      session_ids: [projectId],
      filter: 'eq(name, "answer-5")',
    });
    assert.deepEqual(matching.body, { added: 1 });
    const badFilter = await call(server, "POST", "/annotation-queues/populate", {
      queue_id: queue.id,
      session_ids: [projectId],
      filter: "eq(name",
    });
    assert.equal(badFilter.status, 400);
    assert.deepEqual(await aq.retrieveTotalSize(queue.id), { size: 3 });
    await aq.delete(queue.id);
    assert.equal((await call(server, "GET", `/annotation-queues/${queue.id}`)).status, 404);
  });

  test("access: viewers read but cannot review or change; another workspace gets 404s; bad input is a 400 naming it", async () => {
    const queue = await client.createAnnotationQueue({ name: "Access" });
    await client.addRunsToAnnotationQueue(queue.id, [{ runId: runs[4].id, sessionId: projectId, startTime: runs[4].start }]);
    const key = await call(server, "POST", "/api-key", { kind: "service", role: "viewer", description: "viewer" });
    const viewer = { url: server.url, apiKey: key.body.key as string };
    assert.equal((await call(viewer, "GET", `/annotation-queues/${queue.id}`)).status, 200);
    const [item] = (await call(viewer, "GET", `/annotation-queues/${queue.id}/runs`)).body;
    const denied = await call(viewer, "POST", `/annotation-queues/status/${item.queue_run_id}`, { status: "completed" });
    assert.equal(denied.status, 403);
    assert.match(denied.body.detail, /viewer/);
    assert.equal((await call(viewer, "PATCH", `/annotation-queues/${queue.id}`, { name: "x" })).status, 403);

    const other = await newUser(server.url, "outsider@example.com", "outsider-password-1", "Out");
    const otherKey = await ui(other, "POST", "/api-key", { kind: "service" });
    const outsider = new Client({ apiUrl: server.url, apiKey: otherKey.body.key, autoBatchTracing: false });
    await assert.rejects(outsider.readAnnotationQueue(queue.id), /404|not found/i);
    await assert.rejects(outsider.addRunsToAnnotationQueue(queue.id, [runs[5].id]), /404|not found/i);
    assert.equal(
      (
        await call(
          { url: server.url, apiKey: otherKey.body.key },
          "POST",
          `/platform/annotation-queues/items/${item.queue_run_id}/status`,
          { status: "completed" },
        )
      ).status,
      404,
    );
    assert.equal((await collect(outsider.listAnnotationQueues())).length, 0);

    const bad = await call(server, "POST", "/annotation-queues", { name: "x", num_reviewers_per_item: 0 });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /num_reviewers_per_item/);
    const twice = await call(server, "POST", "/annotation-queues", {
      name: "x",
      rubric_items: [{ feedback_key: "a" }, { feedback_key: "a" }],
    });
    assert.equal(twice.status, 400);
    assert.match(twice.body.detail, /"a" twice/);
  });

  test("a rule sends matching runs to a queue", async () => {
    const queue = await client.createAnnotationQueue({ name: "From a rule" });
    const project = await client.createProject({ projectName: `ruled-${randomUUID().slice(0, 6)}` });
    const rule = await call(server, "POST", "/runs/rules", {
      display_name: "errors to review",
      session_id: project.id,
      filter: 'eq(status, "error")',
      add_to_annotation_queue_id: queue.id,
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    assert.equal(rule.body.add_to_annotation_queue_id, queue.id);
    const failed = randomUUID();
    await client.createRun({
      id: failed,
      name: "broken",
      run_type: "chain",
      inputs: {},
      error: "boom",
      project_name: project.name,
      end_time: Date.now(),
    } as never);
    await client.createRun({
      id: randomUUID(),
      name: "fine",
      run_type: "chain",
      inputs: {},
      outputs: {},
      project_name: project.name,
      end_time: Date.now(),
    } as never);
    const queued = await eventually(async () => {
      const list = await collect(client.listRunsFromAnnotationQueue(queue.id));
      return list.length ? list : null;
    });
    assert.deepEqual(
      queued.map((r) => r.id),
      [failed],
    );
  });
});
