import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import {
  createFeedbackConfig,
  deleteFeedbackConfig,
  feedbackConfigCreate,
  feedbackConfigUpdate,
  listFeedbackConfigs,
  updateFeedbackConfig,
} from "./configs";

const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;
const page = { key: [] as string[], offset: 0, limit: 100 };

withTestDatabases("feedback configs", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "configs")).id;
    other = (await createWorkspace(db.prisma, "other")).id;
  });

  test("create is an upsert of the same config; a different one is refused; update; delete", async () => {
    const body = feedbackConfigCreate.parse({ feedback_key: "accuracy", feedback_config: { type: "continuous", min: 0, max: 1 } });
    const made = await createFeedbackConfig(db, ws, body);
    assert.equal(made.is_lower_score_better, false);
    assert.equal((await createFeedbackConfig(db, ws, body)).id, made.id);
    await assert.rejects(createFeedbackConfig(db, ws, { ...body, feedback_config: { type: "freeform" } }), status(400));
    await assert.rejects(
      createFeedbackConfig(
        db,
        ws,
        feedbackConfigCreate.parse({ feedback_key: "b", feedback_config: { type: "continuous", min: 2, max: 1 } }),
      ),
      status(400),
    );
    await assert.rejects(
      createFeedbackConfig(
        db,
        ws,
        feedbackConfigCreate.parse({ feedback_key: "c", feedback_config: { type: "categorical", categories: [{ value: 1 }] } }),
      ),
      status(400),
    );

    const changed = await updateFeedbackConfig(
      db,
      ws,
      feedbackConfigUpdate.parse({ feedback_key: "accuracy", is_lower_score_better: true }),
    );
    assert.equal(changed.is_lower_score_better, true);
    assert.deepEqual(changed.feedback_config, { type: "continuous", min: 0, max: 1 });
    assert.deepEqual(
      (await listFeedbackConfigs(db, ws, { ...page, name_contains: "ACC" })).map((c) => c.feedback_key),
      ["accuracy"],
    );
    assert.equal((await listFeedbackConfigs(db, other, page)).length, 0);
    await assert.rejects(
      updateFeedbackConfig(db, other, feedbackConfigUpdate.parse({ feedback_key: "accuracy", is_lower_score_better: false })),
      status(404),
    );
    await assert.rejects(deleteFeedbackConfig(db, other, { feedback_key: "accuracy" }), status(404));
    await deleteFeedbackConfig(db, ws, { feedback_key: "accuracy" });
    assert.equal((await listFeedbackConfigs(db, ws, page)).length, 0);
  });
});
