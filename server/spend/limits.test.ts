import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { createWorkspace } from "../auth/workspaces";
import { AppError } from "../core/errors";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { storeProject, storeRun } from "../feedback/test-runs";
import { assertPlaygroundSpend, listSpendLimits, PLAYGROUND_PROJECT, setSpendLimit, spendBlocked, windowStart } from "./limits";
import { spendLimitSet } from "./schema";

test("a limit's window starts at the UTC day, the ISO week's Monday, or the month", () => {
  const at = new Date("2026-11-27T15:30:00Z"); // a Friday
  assert.equal(windowStart("daily", at).toISOString(), "2026-11-27T00:00:00.000Z");
  assert.equal(windowStart("weekly", at).toISOString(), "2026-11-23T00:00:00.000Z");
  assert.equal(windowStart("monthly", at).toISOString(), "2026-11-01T00:00:00.000Z");
  assert.equal(windowStart("weekly", new Date("2026-11-23T00:00:00Z")).toISOString(), "2026-11-23T00:00:00.000Z");
  assert.equal(windowStart("weekly", new Date("2026-11-29T23:59:00Z")).toISOString(), "2026-11-23T00:00:00.000Z");
});

withTestDatabases("spend limits", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let evaluator: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "spend")).id;
    other = (await createWorkspace(db.prisma, "other")).id;
    evaluator = randomUUID();
    const rule = randomUUID();
    const project = await storeProject(db, ws);
    await db.query(
      sql`INSERT INTO evaluators (id, workspace_id, name, prompt, output_schema) VALUES (${evaluator}, ${ws}, 'judge', '[]', '{}')`,
    );
    await db.query(sql`INSERT INTO run_rules (id, workspace_id, project_id, display_name) VALUES (${rule}, ${ws}, ${project}, 'r')`);
    for (const cost of [0.25, 0.5])
      await db.query(sql`
        INSERT INTO evaluations (rule_id, run_id, workspace_id, evaluator_id, outcome, total_cost)
        VALUES (${rule}, ${randomUUID()}, ${ws}, ${evaluator}, 'success', ${cost})`);
  });

  test("limits are set, read with their spend, and removed; per evaluator too", async () => {
    const set = (body: unknown, workspace = ws) => setSpendLimit(db, workspace, spendLimitSet.parse(body));
    const [limit] = await set({ target: "evaluators", limit_usd: 1, window: "monthly" });
    assert.equal(limit.spend_usd, 0.75);
    assert.equal(limit.utilization_pct, 75);
    assert.equal(await spendBlocked(db, ws, [{ target: "evaluators" }]), null);
    await set({ target: "evaluator", evaluator_id: evaluator, limit_usd: 0.5, window: "daily" });
    const blocked = await spendBlocked(db, ws, [{ target: "evaluators" }, { target: "evaluator", evaluatorId: evaluator }]);
    assert.match(blocked!, /^this evaluator's daily spend limit of \$0\.5 is reached \(\$0\.75 spent since /);
    await assert.rejects(
      set({ target: "evaluator", evaluator_id: evaluator, limit_usd: 1 }, other),
      (e) => e instanceof AppError && e.status === 404,
    );
    assert.equal(spendLimitSet.safeParse({ target: "evaluator", limit_usd: 1 }).success, false);
    assert.equal(spendLimitSet.safeParse({ target: "evaluators", limit_usd: -1 }).success, false);
    assert.equal((await listSpendLimits(db, other)).length, 0, "another workspace sees none");
    await set({ target: "evaluator", evaluator_id: evaluator, limit_usd: null });
    assert.deepEqual(
      (await listSpendLimits(db, ws)).map((l) => l.target),
      ["evaluators"],
    );
  });

  test("the playground refuses calls once its project's spend reaches the limit", async () => {
    const project = await storeProject(db, ws, PLAYGROUND_PROJECT);
    const run = await storeRun(db, ws, project, { runType: "llm" });
    await db.query(sql`UPDATE runs SET total_cost = 0.02 WHERE id = ${run}`);
    await assertPlaygroundSpend(db, ws);
    await setSpendLimit(db, ws, spendLimitSet.parse({ target: "playground", limit_usd: 0.02, window: "daily" }));
    await assert.rejects(
      assertPlaygroundSpend(db, ws),
      (e) => e instanceof AppError && e.status === 429 && /playground daily spend limit of \$0\.02 is reached/.test(e.message),
    );
    await assertPlaygroundSpend(db, other);
  });
});
