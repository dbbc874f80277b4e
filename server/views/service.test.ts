import { test } from "node:test";
import assert from "node:assert/strict";
import { signUp } from "../auth/users";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { seedProject } from "../runs/test-seed";
import { viewCreate, viewUpdate } from "./schema";
import { createView, defaultView, deleteView, listViews, readView, updateView, type ViewActor } from "./service";

const status = (code: number, detail?: RegExp) => (error: unknown) =>
  error instanceof AppError && error.status === code && (!detail || detail.test(error.detail));

withTestDatabases("saved views", (open) => {
  let db: Sql;
  let ws: string;
  let project: string;
  let admin: ViewActor;
  let viewer: ViewActor;
  let key: ViewActor;
  test("setup", async () => {
    db = (await open()).sql;
    const a = await signUp(db, { email: `views-a-${Date.now()}@example.com`, password: "password-123" });
    const v = await signUp(db, { email: `views-v-${Date.now()}@example.com`, password: "password-123" });
    ws = a.workspaceId;
    project = await seedProject(db, ws);
    admin = { userId: a.userId, role: "admin" };
    viewer = { userId: v.userId, role: "viewer" };
    key = { role: "member" };
  });

  test("a shared view is saved, listed for everyone, and its filter is checked when saved", async () => {
    const state = {
      filter: 'eq(run_type, "llm")',
      search: "refund",
      range: "24h" as const,
      sort: { by: "latency" as const, dir: "desc" as const },
    };
    const made = await createView(db, ws, admin, viewCreate.parse({ project_id: project, name: "Slow LLM calls", state }));
    assert.equal(made.shared, true);
    assert.equal(made.editable, true);
    assert.deepEqual(made.state, state);
    const seen = await listViews(db, ws, viewer, project);
    assert.deepEqual(
      seen.map((v) => [v.name, v.editable]),
      [["Slow LLM calls", false]],
    );
    await assert.rejects(
      createView(db, ws, admin, viewCreate.parse({ project_id: project, name: "broken", state: { filter: "eq(name" } })),
      /Invalid filter at position 7/,
    );
    assert.throws(() => viewCreate.parse({ project_id: project, name: "x", state: { range: "2w" } }));
    assert.throws(() => viewCreate.parse({ project_id: project, name: "x", state: { unknown: 1 } }));
  });

  test("viewers keep private views but cannot create or change shared ones", async () => {
    await assert.rejects(
      createView(db, ws, viewer, viewCreate.parse({ project_id: project, name: "mine", state: {} })),
      status(403, /viewer/),
    );
    const mine = await createView(
      db,
      ws,
      viewer,
      viewCreate.parse({ project_id: project, name: "Errors only", state: { filter: "eq(error, true)" }, shared: false }),
    );
    assert.equal(mine.shared, false);
    assert.equal(mine.editable, true);
    // Private: the admin does not see it, the viewer does.
    assert.ok(!(await listViews(db, ws, admin, project)).some((v) => v.id === mine.id));
    await assert.rejects(readView(db, ws, admin, mine.id), status(404));
    const shared = (await listViews(db, ws, viewer, project)).find((v) => v.shared)!;
    await assert.rejects(updateView(db, ws, viewer, shared.id, viewUpdate.parse({ name: "renamed" })), status(403));
    await assert.rejects(deleteView(db, ws, viewer, shared.id), status(403));
    const renamed = await updateView(db, ws, viewer, mine.id, viewUpdate.parse({ name: "My errors" }));
    assert.equal(renamed.name, "My errors");
    await assert.rejects(updateView(db, ws, viewer, mine.id, viewUpdate.parse({ is_default: true })), status(400, /shared/));
    await deleteView(db, ws, viewer, mine.id);
    // A service key has no person to keep a private view for.
    await assert.rejects(
      createView(db, ws, key, viewCreate.parse({ project_id: project, name: "k", state: {}, shared: false })),
      status(400),
    );
  });

  test("one default view per project; another workspace sees none of them", async () => {
    assert.equal(await defaultView(db, ws, admin, project), null);
    const first = await createView(
      db,
      ws,
      admin,
      viewCreate.parse({ project_id: project, name: "Default A", state: { range: "7d" }, is_default: true }),
    );
    assert.equal((await defaultView(db, ws, viewer, project))?.id, first.id);
    const second = await createView(db, ws, key, viewCreate.parse({ project_id: project, name: "Default B", state: { tab: "threads" } }));
    await updateView(db, ws, admin, second.id, viewUpdate.parse({ is_default: true }));
    assert.equal((await defaultView(db, ws, admin, project))?.id, second.id);
    assert.equal((await readView(db, ws, admin, first.id)).is_default, false);
    await updateView(db, ws, admin, second.id, viewUpdate.parse({ is_default: false }));
    assert.equal(await defaultView(db, ws, admin, project), null);

    const other = await signUp(db, { email: `views-o-${Date.now()}@example.com`, password: "password-123" });
    const outsider: ViewActor = { userId: other.userId, role: "admin" };
    assert.deepEqual(await listViews(db, other.workspaceId, outsider, project), []);
    await assert.rejects(readView(db, other.workspaceId, outsider, first.id), status(404));
    await assert.rejects(
      createView(db, other.workspaceId, outsider, viewCreate.parse({ project_id: project, name: "x", state: {} })),
      status(404),
    );
  });
});
