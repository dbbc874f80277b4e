import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { readLlmDetails } from "../runs/llm-details";
import { feedbackCreate } from "./schema";
import { createFeedback } from "./service";
import { storeProject, storeRun } from "./test-runs";
import { feedbackOnRunAndTrace } from "./trace";

withTestDatabases("feedback-trace", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "trace feedback")).id;
    other = (await createWorkspace(db.prisma, "other")).id;
  });

  test("feedback on the run and on its trace's other runs, newest first; not other traces or workspaces", async () => {
    const project = await storeProject(db, ws);
    const root = await storeRun(db, ws, project);
    const child = await storeRun(db, ws, project, { traceId: root, parentRunId: root });
    const elsewhere = await storeRun(db, ws, project);
    const add = (workspaceId: string, runId: string, key: string) =>
      createFeedback(db, workspaceId, feedbackCreate.parse({ run_id: runId, key }));
    await add(ws, root, "on-root");
    await add(ws, child, "on-child");
    await add(ws, elsewhere, "other-trace");
    const pending = randomUUID();
    await add(ws, pending, "run-not-stored");

    const forChild = await feedbackOnRunAndTrace(db, ws, child, root);
    assert.deepEqual(forChild.map((f) => f.key).sort(), ["on-child", "on-root"]);
    assert.deepEqual(
      (await feedbackOnRunAndTrace(db, ws, pending, null)).map((f) => f.key),
      ["run-not-stored"],
    );
    assert.deepEqual(await feedbackOnRunAndTrace(db, other, child, root), []);
    assert.deepEqual(await feedbackOnRunAndTrace(db, ws, "nope", null), []);
  });

  test("llm details: model, estimate flag and usage breakdown; null for another workspace", async () => {
    const project = await storeProject(db, ws);
    const id = await storeRun(db, ws, project, { runType: "llm" });
    const details = await readLlmDetails(db, ws, id);
    assert.deepEqual(details, { model: null, provider: null, tokens_estimated: false, usage_details: null });
    assert.equal(await readLlmDetails(db, other, id), null);
  });
});
