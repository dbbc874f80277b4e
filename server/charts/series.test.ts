import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { FilterSyntaxError } from "../runs/filter/index";
import { seedFeedback, seedProject, seedRun } from "../runs/test-seed";
import { nearAll } from "../runs/rollups/test-near";
import { bucketSeconds, bucketStarts } from "./buckets";
import { chartQueryFromWire, chartRequest, chartSetCreate, chartSetUpdate } from "./schema";
import { chartSeries, projectChartSeries } from "./series";
import { createChartSet, deleteChartSet, listChartSets, readChartSet, renderChartSet, updateChartSet } from "./sets";

const ws = randomUUID();
const day = Date.parse("2026-04-01T00:00:00Z");
const at = (hours: number) => new Date(day + hours * 3_600_000);

test("buckets: chosen from the range, or given; too many is refused", () => {
  assert.equal(bucketSeconds(3600), 60);
  assert.equal(bucketSeconds(86_400), 3600, "from a day up, whole hours (the rollups answer them)");
  assert.equal(bucketSeconds(12 * 3600), 900);
  assert.equal(bucketSeconds(30 * 86_400), 43_200);
  assert.equal(bucketSeconds(86_400, "1h"), 3600);
  assert.equal(bucketSeconds(86_400, 600), 600);
  assert.throws(() => bucketSeconds(30 * 86_400, "1m"), /more than 1000 points/);
  assert.deepEqual(bucketStarts(90_000, 250_000, 60), [60_000, 120_000, 180_000, 240_000]);
});

withTestDatabases("charts", (open) => {
  let db: Sql;
  let project: string;
  let other: string;
  const range = { start_time: at(0).toISOString(), end_time: at(3).toISOString(), bucket: "1h" };

  before(async () => {
    db = (await open()).sql;
    project = await seedProject(db, ws);
    other = await seedProject(db, ws);
    const r1 = await seedRun(db, ws, project, {
      runType: "llm",
      model: "gpt-4o",
      start: at(0.5),
      latencyMs: 1000,
      promptTokens: 10,
      completionTokens: 5,
      promptCost: 0.1,
      completionCost: 0.2,
      tags: ["a"],
      metadata: { env: "prod" },
    });
    await seedRun(db, ws, project, {
      runType: "llm",
      model: "gpt-4o",
      start: at(0.7),
      latencyMs: 3000,
      error: "x",
      promptTokens: 1,
      completionTokens: 1,
      tags: ["a", "b"],
      metadata: { env: "dev" },
    });
    await seedRun(db, ws, project, {
      runType: "llm",
      model: "claude",
      start: at(2.1),
      latencyMs: 2000,
      firstTokenMs: 500,
      promptTokens: 100,
      completionTokens: 0,
      promptCost: 1,
      metadata: { env: "prod" },
    });
    await seedRun(db, ws, other, { runType: "chain", start: at(1.5), latencyMs: 100 });
    {
      const other = randomUUID();
      await seedRun(db, other, await seedProject(db, other), { start: at(1.5) });
    }
    await seedFeedback(db, ws, { ...r1, projectId: project }, "quality", 0.8);
  });

  test("ungrouped series over a project, one value per bucket", async () => {
    const chart = await projectChartSeries(
      db,
      ws,
      project,
      chartQueryFromWire(
        chartRequest.parse({
          ...range,
          metrics: ["run_count", "error_rate", "latency_p50", "total_tokens", "total_cost", "first_token_p50", "feedback"],
        }),
      ),
    );
    assert.deepEqual(chart.buckets, ["2026-04-01T00:00:00.000000Z", "2026-04-01T01:00:00.000000Z", "2026-04-01T02:00:00.000000Z"]);
    assert.equal(chart.bucket_seconds, 3600);
    const values = (metric: string) => chart.series.find((s) => s.metric === metric)!.values;
    assert.deepEqual(values("run_count"), [2, 0, 1]);
    assert.deepEqual(values("error_rate"), [0.5, null, 0]);
    nearAll(values("latency_p50"), [2, null, 2]);
    assert.deepEqual(values("total_tokens"), [17, 0, 100]);
    assert.ok(Math.abs(values("total_cost")[0]! - 0.3) < 1e-9);
    nearAll(values("first_token_p50"), [null, null, 0.5]);
    assert.deepEqual(values("feedback:quality"), [0.8, null, null]);
  });

  test("the workspace chart covers every project but no other workspace", async () => {
    const chart = await chartSeries(db, ws, chartQueryFromWire(chartRequest.parse({ ...range, metrics: ["run_count"] })));
    assert.deepEqual(chart.series[0].values, [2, 1, 1]);
  });

  test("group by model, tag and a metadata key, with a filter", async () => {
    const byModel = await chartSeries(
      db,
      ws,
      chartQueryFromWire(
        chartRequest.parse({
          ...range,
          metrics: ["run_count", "total_cost"],
          group_by: { attribute: "model" },
          filter: 'eq(run_type, "llm")',
        }),
      ),
    );
    const runCount = byModel.series.filter((s) => s.metric === "run_count");
    assert.deepEqual(
      runCount.map((s) => [s.group, s.values]),
      [
        ["gpt-4o", [2, 0, 0]],
        ["claude", [0, 0, 1]],
      ],
    );
    const byTag = await chartSeries(
      db,
      ws,
      chartQueryFromWire(chartRequest.parse({ ...range, metrics: ["run_count"], session: project, group_by: { attribute: "tag" } })),
    );
    assert.deepEqual(
      byTag.series.map((s) => [s.group, s.values]),
      [
        ["a", [2, 0, 0]],
        ["(none)", [0, 0, 1]],
        ["b", [1, 0, 0]],
      ],
    );
    const byEnv = await chartSeries(
      db,
      ws,
      chartQueryFromWire(
        chartRequest.parse({
          ...range,
          metrics: ["run_count"],
          session: [project],
          group_by: { attribute: "metadata", path: "env" },
          max_groups: 1,
        }),
      ),
    );
    assert.deepEqual(
      byEnv.series.map((s) => [s.group, s.values]),
      [["prod", [1, 0, 1]]],
    );
  });

  test("bad requests: a foreign project, a malformed filter, a metadata group without a key", async () => {
    await assert.rejects(
      projectChartSeries(db, randomUUID(), project, chartQueryFromWire(chartRequest.parse(range))),
      (e) => e instanceof AppError && e.status === 404,
    );
    await assert.rejects(chartSeries(db, ws, chartQueryFromWire(chartRequest.parse({ ...range, filter: "eq(name" }))), FilterSyntaxError);
    assert.equal(chartRequest.safeParse({ group_by: { attribute: "metadata" } }).success, false);
  });

  test("chart sets: create, list, read, update, render, delete", async () => {
    const created = await createChartSet(
      db,
      ws,
      chartSetCreate.parse({
        name: "LLM health",
        project_id: project,
        sections: [{ title: "Volume", charts: [{ title: "Runs by model", metrics: ["run_count"], group_by: { attribute: "model" } }] }],
      }),
    );
    assert.ok(created.sections[0].id && created.sections[0].charts[0].id);
    await assert.rejects(
      createChartSet(db, ws, chartSetCreate.parse({ name: "LLM health" })),
      (e) => e instanceof AppError && e.status === 409,
    );
    await assert.rejects(
      createChartSet(db, ws, chartSetCreate.parse({ name: "bad", sections: [{ title: "s", charts: [{ title: "c", filter: "eq(" }] }] })),
      FilterSyntaxError,
    );
    assert.deepEqual(
      (await listChartSets(db, ws, project)).map((s) => s.name),
      ["LLM health"],
    );
    assert.deepEqual(await listChartSets(db, randomUUID()), []);
    const updated = await updateChartSet(
      db,
      ws,
      created.id,
      chartSetUpdate.parse({
        sections: [...created.sections, { title: "Cost", charts: [{ title: "Cost", metrics: ["total_cost"] }] }],
      }),
    );
    assert.equal(updated.sections.length, 2);
    assert.equal(updated.sections[0].id, created.sections[0].id);
    const rendered = await renderChartSet(db, ws, created.id, { start_time: range.start_time, end_time: range.end_time, bucket: "1h" });
    assert.deepEqual(
      rendered.sections[0].charts[0].data.series.map((s) => s.group),
      ["gpt-4o", "claude"],
    );
    await assert.rejects(readChartSet(db, randomUUID(), created.id), (e) => e instanceof AppError && e.status === 404);
    await deleteChartSet(db, ws, created.id);
    await assert.rejects(readChartSet(db, ws, created.id), (e) => e instanceof AppError && e.status === 404);
  });
});
