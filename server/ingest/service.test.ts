import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { readRun } from "../runs/read";
import { ingestRuns } from "./service";
import { storedRow as stored } from "./test-stored";
import { dottedStamp, parseInstant } from "../core/time";

const stamp = (iso: string) => dottedStamp(parseInstant(iso)!);

withTestDatabases("ingest", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "ingest tests")).id;
  });

  test("a post then a patch in another request complete one run; metadata merges", async () => {
    const id = randomUUID();
    await ingestRuns(db, ws, {
      post: [
        {
          id,
          name: "chain",
          run_type: "chain",
          start_time: "2024-05-01T12:00:00.123001Z",
          inputs: { q: 1 },
          extra: { metadata: { a: 1 } },
        },
      ],
    });
    let row = await stored(db, id);
    assert.equal(row.status, "pending");
    assert.equal(row.is_root, true);
    assert.equal(row.trace_id, id);
    assert.equal(row.dotted_order, `20240501T120000123001Z${id}`);
    await ingestRuns(db, ws, { patch: [{ id, end_time: 1714564801123, outputs: { a: 2 }, extra: { metadata: { b: 2 } }, name: null }] });
    row = await stored(db, id);
    assert.equal(row.status, "success");
    assert.equal(row.name, "chain");
    assert.deepEqual(row.inputs, { q: 1 });
    assert.deepEqual(row.outputs, { a: 2 });
    assert.deepEqual(row.extra.metadata, { a: 1, b: 2 });
    assert.equal(Math.round(row.latency_ms), 1000);
  });

  test("a run that took no time is 0 ms even when its start was moved a few microseconds past its end", async () => {
    const [instant, skewed] = [randomUUID(), randomUUID()];
    await ingestRuns(db, ws, {
      post: [
        { id: instant, name: "instant", run_type: "tool", start_time: "2024-05-01T12:00:00.123003Z", end_time: "2024-05-01T12:00:00.123Z" },
        { id: skewed, name: "skewed", run_type: "tool", start_time: "2024-05-01T12:00:00.123Z", end_time: "2024-05-01T12:00:00.118Z" },
      ],
    });
    assert.equal((await stored(db, instant)).latency_ms, 0);
    assert.equal(Math.round((await stored(db, skewed)).latency_ms), -5, "a clock that really ran backwards is shown as sent");
  });

  test("a patch that arrives before its post is kept and completed by the post", async () => {
    const id = randomUUID();
    await ingestRuns(db, ws, { patch: [{ id, end_time: "2024-05-01T12:00:05Z", outputs: { done: true } }] });
    await ingestRuns(db, ws, {
      post: [{ id, name: "late post", run_type: "llm", start_time: "2024-05-01T12:00:00Z", inputs: { x: 1 }, session_name: "p1" }],
    });
    const row = await stored(db, id);
    assert.equal(row.name, "late post");
    assert.equal(row.status, "success");
    assert.deepEqual(row.outputs, { done: true });
    assert.deepEqual(row.inputs, { x: 1 });
    const [project] = await db.query<{ name: string }>(sql`SELECT name FROM projects WHERE id = ${row.project_id}`);
    assert.equal(project.name, "p1");
  });

  test("sending the same run twice changes nothing", async () => {
    const id = randomUUID();
    const run = {
      id,
      name: "same",
      run_type: "tool",
      start_time: "2024-05-01T12:00:00Z",
      end_time: "2024-05-01T12:00:01Z",
      outputs: { y: 1 },
    };
    await ingestRuns(db, ws, { post: [run] });
    const first = await stored(db, id);
    await ingestRuns(db, ws, { post: [run] });
    const second = await stored(db, id);
    assert.deepEqual({ ...second, updated_at: null }, { ...first, updated_at: null });
  });

  test("a child that arrives before its parent is placed when the parent arrives", async () => {
    const root = randomUUID();
    const child = randomUUID();
    const grandchild = randomUUID();
    await ingestRuns(db, ws, {
      post: [{ id: child, parent_run_id: root, trace_id: root, name: "child", start_time: "2024-05-01T12:00:01Z" }],
    });
    await ingestRuns(db, ws, { post: [{ id: grandchild, parent_run_id: child, name: "grandchild", start_time: "2024-05-01T12:00:02Z" }] });
    assert.equal((await stored(db, grandchild)).placement_pending, true);
    await ingestRuns(db, ws, { post: [{ id: root, name: "root", start_time: "2024-05-01T12:00:00Z" }] });
    const rootOrder = `${stamp("2024-05-01T12:00:00Z")}${root}`;
    const childRow = await stored(db, child);
    const grandRow = await stored(db, grandchild);
    assert.equal(childRow.dotted_order, `${rootOrder}.${stamp("2024-05-01T12:00:01Z")}${child}`);
    assert.equal(grandRow.dotted_order, `${childRow.dotted_order}.${stamp("2024-05-01T12:00:02Z")}${grandchild}`);
    assert.equal(grandRow.trace_id, root);
    assert.equal(grandRow.placement_pending, false);
  });

  test("a batch merges a post and a patch of the same run and places children from the request", async () => {
    const root = randomUUID();
    const child = randomUUID();
    await ingestRuns(db, ws, {
      post: [
        { id: child, parent_run_id: root, name: "c", start_time: "2024-05-01T12:00:01Z" },
        { id: root, name: "r", start_time: "2024-05-01T12:00:00Z" },
      ],
      patch: [{ id: root, end_time: "2024-05-01T12:00:03Z", error: "boom" }],
    });
    const rootRow = await stored(db, root);
    assert.equal(rootRow.status, "error");
    assert.equal(rootRow.error, "boom");
    assert.ok((await stored(db, child)).dotted_order.startsWith(rootRow.dotted_order + "."));
  });

  test("inconsistent dotted_order, trace_id or parent costs only that run: it is refused with why, the others are stored", async () => {
    const ok = randomUUID();
    const bad = randomUUID();
    const other = randomUUID();
    const result = await ingestRuns(db, ws, {
      post: [
        { id: ok, name: "fine", start_time: "2024-05-01T12:00:00Z" },
        { id: bad, name: "bad", dotted_order: `${stamp("2024-05-01T12:00:00Z")}${bad}`, trace_id: other },
      ],
    });
    assert.equal(result.created, 1);
    assert.deepEqual(
      result.rejected.map((r) => r.id),
      [bad],
    );
    assert.match(result.rejected[0].detail, /trace_id/);
    assert.equal((await stored(db, ok))?.name, "fine");
    assert.equal(await stored(db, bad), undefined);
    await assert.rejects(
      ingestRuns(db, ws, { post: [{ id: bad, name: "alone", dotted_order: `${stamp("2024-05-01T12:00:00Z")}${bad}`, trace_id: other }] }),
      (e: unknown) => e instanceof AppError && e.status === 400 && /trace_id/.test(e.detail),
      "a request of one run still answers its error",
    );
    await assert.rejects(
      ingestRuns(db, ws, { post: [{ id: bad, dotted_order: "garbage" }] }),
      (e: unknown) => e instanceof AppError && /segment 1/.test(e.detail),
    );
  });

  test("another workspace cannot overwrite a run by reusing its id", async () => {
    const id = randomUUID();
    const other = (await createWorkspace(db.prisma, "other")).id;
    await ingestRuns(db, ws, { post: [{ id, name: "mine", start_time: "2024-05-01T12:00:00Z" }] });
    await assert.rejects(
      ingestRuns(db, other, { patch: [{ id, name: "theirs", outputs: { stolen: true } }] }),
      (e: unknown) => e instanceof AppError && e.status === 404 && e.detail === `Run ${id} not found.`,
      "a patch: as if the run were unknown, never saying it exists elsewhere",
    );
    await assert.rejects(
      ingestRuns(db, other, { post: [{ id, name: "again" }] }),
      (e: unknown) => e instanceof AppError && e.status === 409 && e.detail === `Run ${id} already exists; send it with a new id.`,
      "a post: a 409 naming the run, not where it exists",
    );
    const mixed = await ingestRuns(db, other, {
      post: [
        { id, name: "again" },
        { id: randomUUID(), name: "theirs-ok" },
      ],
    });
    assert.deepEqual([mixed.created, mixed.rejected.map((r) => r.id)], [1, [id]]);
    const row = await stored(db, id);
    assert.equal(row.name, "mine");
    assert.equal(row.workspace_id, ws);
    assert.equal(row.outputs, null);
  });

  test("U+0000 and lone surrogates anywhere in a run are stored and read back as sent", async () => {
    const id = randomUUID();
    const weird = "nul\u0000 lone\ud800 private\ue000 end";
    await ingestRuns(db, ws, {
      post: [
        {
          id,
          name: `name ${weird}`,
          start_time: "2024-05-01T12:00:00Z",
          error: `boom ${weird}`,
          tags: [weird],
          inputs: { [`key ${weird}`]: weird, list: [weird] },
          outputs: { text: weird },
          extra: { metadata: { [weird]: weird } },
          events: [{ name: "new_token", kwargs: { token: weird } }],
        },
      ],
    });
    const run = (await readRun(db, ws, id))!;
    assert.equal(run.name, `name ${weird}`);
    assert.equal(run.error, `boom ${weird}`);
    assert.deepEqual(run.tags, [weird]);
    assert.deepEqual(run.inputs, { [`key ${weird}`]: weird, list: [weird] });
    assert.deepEqual(run.outputs, { text: weird });
    assert.equal((run.extra as { metadata: Record<string, string> }).metadata[weird], weird);
  });

  test("more operations than the limit are refused with 413", async () => {
    const post = Array.from({ length: 1001 }, () => ({ id: randomUUID(), name: "x" }));
    await assert.rejects(ingestRuns(db, ws, { post }), (e: unknown) => e instanceof AppError && e.status === 413 && /1001/.test(e.detail));
  });
});
