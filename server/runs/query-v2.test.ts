import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { storeProject, storeRun } from "../feedback/test-runs";
import { queryRunsV2, runQueryV2 } from "./query-v2";

withTestDatabases("runs query v2", (open) => {
  test("another workspace's project in project_ids is a 404 naming it, as everywhere else", async () => {
    const db: Sql = (await open()).sql;
    const mine = (await createWorkspace(db.prisma, "mine")).id;
    const theirs = (await createWorkspace(db.prisma, "theirs")).id;
    const own = await storeProject(db, mine);
    const foreign = await storeProject(db, theirs);
    await storeRun(db, theirs, foreign, { name: "secret" });
    const id = await storeRun(db, mine, own, { name: "visible" });

    const page = await queryRunsV2(db, mine, runQueryV2.parse({ project_ids: [own], min_start_time: "2000-01-01T00:00:00Z" }));
    assert.deepEqual(
      page.items.map((r) => r.id),
      [id],
    );
    for (const projectIds of [[foreign], [own, foreign]]) {
      await assert.rejects(
        queryRunsV2(db, mine, runQueryV2.parse({ project_ids: projectIds })),
        (e: unknown) => e instanceof AppError && e.status === 404 && e.detail === `Project (session) ${foreign} not found.`,
      );
    }
  });
});
