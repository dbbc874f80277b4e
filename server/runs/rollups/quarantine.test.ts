import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import type { Sql } from "../../db/client";
import { raw, sql } from "../../db/sql";
import { withTestDatabases } from "../../db/test-databases";
import { ingestRuns } from "../../ingest/service";
import { insertFeedback } from "../../feedback/store";
import { rollupRowsQuarantined } from "../../core/metrics";
import { compactRollups } from "./compact";

/** Text no compression shrinks: far over the 2,704 bytes a btree index row may hold. */
const poison = () => randomBytes(6000).toString("base64");

async function quarantinedCount(): Promise<number> {
  return (await rollupRowsQuarantined.get()).values.reduce((sum, v) => sum + v.value, 0);
}

async function ingestWorkspace(db: Sql, ws: string, runs: number): Promise<string[]> {
  const ids = Array.from({ length: runs }, () => randomUUID());
  await ingestRuns(db, ws, {
    post: ids.map((id, i) => ({
      id,
      name: `step-${i % 3}`,
      run_type: i % 2 ? "llm" : "chain",
      start_time: `2026-05-01T1${i % 4}:00:00Z`,
      end_time: `2026-05-01T1${i % 4}:00:01Z`,
      inputs: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
      outputs: { usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } },
      session_name: "fold",
    })),
  });
  await insertFeedback(
    db,
    ws,
    ids.map((run_id, i) => ({ run_id, key: "verdict", value: i % 2 ? "good" : "bad", score: i % 2 })),
  );
  return ids;
}

withTestDatabases("the rollup fold isolates a row it cannot merge", (open) => {
  test("poisoned delta rows in each table are quarantined, counted and logged once; every other row of both workspaces folds", async (t) => {
    const db = (await open()).sql;
    const [a, b] = [randomUUID(), randomUUID()];
    await ingestWorkspace(db, a, 12);
    await ingestWorkspace(db, b, 7);
    const [{ project }] = await db.query<{ project: string }>(sql`SELECT id AS project FROM projects WHERE workspace_id = ${a}`);
    // Straight into the tables, as a value past ingest's limits would arrive there.
    const hour = "2026-05-01T10:00:00Z";
    await db.query(sql`
      INSERT INTO run_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider,
        runs, streaming_runs, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost,
        prompt_cost_runs, completion_cost_runs, total_cost_runs, trace_prompt_tokens, trace_completion_tokens, trace_total_tokens,
        trace_prompt_cost, trace_completion_cost, trace_total_cost, trace_prompt_cost_runs, trace_completion_cost_runs, trace_total_cost_runs)
      VALUES (${a}, ${project}, ${hour}, 'chain', true, 'success', ${poison()}, NULL, NULL,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)`);
    await db.query(sql`
      INSERT INTO run_sketches (workspace_id, project_id, bucket_start, run_type, is_root, status, metric, bin, n)
      VALUES (${a}, ${project}, ${hour}, ${poison()}, true, 'success', 1, 7, 1)`);
    await db.query(sql`
      INSERT INTO feedback_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, key, value, n, score_n, score_sum, score_sq)
      VALUES (${a}, ${project}, ${hour}, 'chain', true, 'success', 'verdict', ${poison()}, 1, 0, 0, 0)`);

    const logged = t.mock.method(console, "error", () => {});
    const before = await quarantinedCount();
    await compactRollups(db);

    for (const table of ["run_buckets", "run_sketches", "feedback_buckets"]) {
      const rows = await db.query<{ workspace_id: string; merged: boolean; quarantined: boolean; n: number }>(
        sql`SELECT workspace_id, merged, quarantined, count(*)::int AS n FROM ${raw(table)} GROUP BY 1, 2, 3`,
      );
      const of = (ws: string, merged: boolean, quarantined: boolean) =>
        rows.find((r) => r.workspace_id === ws && r.merged === merged && r.quarantined === quarantined)?.n ?? 0;
      assert.equal(of(a, false, false) + of(b, false, false), 0, `${table}: every normal delta row folded`);
      // The sketches' deltas fold into run_dim_sketches.
      const merged = async (ws: string) =>
        table === "run_sketches"
          ? (
              await db.query<{ n: number }>(
                sql`SELECT count(*)::int AS n FROM run_dim_sketches WHERE workspace_id = ${ws} AND dim = 'none'`,
              )
            )[0].n
          : of(ws, true, false);
      assert.ok((await merged(a)) > 0 && (await merged(b)) > 0, `${table}: both workspaces have merged rows`);
      assert.equal(of(a, false, true), 1, `${table}: the poisoned row is quarantined`);
      assert.equal(of(b, false, true), 0, `${table}: nothing of the other workspace is quarantined`);
    }
    // The folded counts are whole: all time, 12 and 7 runs and feedback.
    const [runs] = await db.query<{ a: number; b: number }>(sql`
      SELECT sum(runs) FILTER (WHERE workspace_id = ${a} AND name LIKE 'step-%')::int AS a, sum(runs) FILTER (WHERE workspace_id = ${b})::int AS b
      FROM run_buckets WHERE merged AND bucket_start = '-infinity'`);
    assert.deepEqual({ ...runs }, { a: 12, b: 7 });
    const [feedback] = await db.query<{ good: number; bad: number }>(sql`
      SELECT sum(n) FILTER (WHERE value = 'good')::int AS good, sum(n) FILTER (WHERE value = 'bad')::int AS bad
      FROM feedback_buckets WHERE merged AND bucket_start = '-infinity'`);
    assert.deepEqual({ ...feedback }, { good: 6 + 3, bad: 6 + 4 });

    assert.equal((await quarantinedCount()) - before, 3, "counted in /metrics");
    assert.equal(logged.mock.callCount(), 3, "logged once each");
    assert.match(String(logged.mock.calls[0].arguments[0]), new RegExp(`workspace ${a}`));

    // New rows keep folding; the quarantined ones are neither retried nor logged again.
    await ingestWorkspace(db, b, 2);
    await compactRollups(db);
    assert.equal((await quarantinedCount()) - before, 3);
    assert.equal(logged.mock.callCount(), 3);
    const [left] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM run_buckets WHERE NOT merged AND NOT quarantined`);
    assert.equal(left.n, 0);
  });
});
