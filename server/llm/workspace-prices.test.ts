import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { ingestRuns } from "../ingest/service";
import { modelPriceCreate, modelPriceListQuery, modelPriceUpdate, patternProblem } from "./price-schema";
import { createModelPrice, deleteModelPrice, listModelPrices, updateModelPrice, workspacePriceEntries } from "./workspace-prices";

const status = (code: number) => (e: unknown) => e instanceof AppError && e.status === code;
const llmRun = (model: string, usage: Record<string, unknown>, start = "2026-01-01T00:00:00Z") => ({
  id: randomUUID(),
  name: "llm",
  run_type: "llm",
  start_time: start,
  end_time: start,
  inputs: { messages: [{ role: "user", content: "hi" }] },
  outputs: { usage_metadata: usage },
  extra: { metadata: { ls_model_name: model, ls_provider: "openai" } },
});
const M = { input_tokens: 1_000_000, output_tokens: 1_000_000, total_tokens: 2_000_000 };

async function cost(db: Sql, id: string) {
  const [row] = await db.query<{
    prompt_cost: string | number;
    completion_cost: string | number;
    total_cost: string | number;
    usage_details: Record<string, unknown>;
  }>(sql`SELECT prompt_cost, completion_cost, total_cost, usage_details FROM runs WHERE id = ${id}`);
  return {
    prompt: Number(row.prompt_cost),
    completion: Number(row.completion_cost),
    total: Number(row.total_cost),
    price: row.usage_details?.price_model,
  };
}

test("pattern safety: compiles, capped, no nested quantifiers or back-references; (?i) accepted", () => {
  assert.equal(patternProblem("^(openai/)?gpt-4o$"), null);
  assert.equal(patternProblem("(?i)^my-model-\\d+$"), null);
  assert.match(patternProblem("^(a+)+$")!, /repeat a group/);
  assert.match(patternProblem("(\\w*)*x")!, /repeat a group/);
  assert.match(patternProblem("(a)\\1")!, /back-references/);
  assert.match(patternProblem("([a-z")!, /not a valid regular expression/);
  assert.match(patternProblem("a".repeat(301))!, /longer than 300/);
  const bad = modelPriceCreate.safeParse({ name: "x", match_pattern: "x", prices: { input: -1 } });
  assert.equal(bad.success, false);
  assert.match(JSON.stringify(bad.error?.issues), /prices.*input|must not be negative/);
  assert.equal(modelPriceCreate.safeParse({ name: "x", match_pattern: "x", prices: {} }).success, false);
  assert.equal(modelPriceCreate.safeParse({ name: "x", match_pattern: "x", prices: { input: 1, tokens: 2 } }).success, false);
  assert.equal(modelPriceCreate.parse({ name: "x", match_pattern: "(?i)^x$", prices: { input: 1 } }).match_pattern, "^x$");
});

withTestDatabases("workspace model prices", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "prices")).id;
  });

  test("CRUD; list shows the workspace's prices first, then the shipped table; other workspaces see 404", async () => {
    const created = await createModelPrice(
      db,
      ws,
      modelPriceCreate.parse({
        name: "mine",
        match_pattern: "^mine-\\d$",
        provider: "acme",
        prices: { input: 1, output: 2, cache_read: 0.5 },
      }),
    );
    assert.equal(created.source, "workspace");
    assert.deepEqual(created.prices, { input: 1, output: 2, cache_read: 0.5 });
    const all = await listModelPrices(db, ws, modelPriceListQuery.parse({}));
    assert.equal(all[0].id, created.id);
    assert.ok(all.some((p) => p.source === "shipped" && p.name === "gpt-4o"));
    assert.deepEqual(
      (await listModelPrices(db, ws, modelPriceListQuery.parse({ source: "workspace" }))).map((p) => p.id),
      [created.id],
    );
    const updated = await updateModelPrice(
      db,
      ws,
      created.id,
      modelPriceUpdate.parse({ name: "renamed", provider: null, prices: { input: 3 } }),
    );
    assert.equal(updated.name, "renamed");
    assert.equal(updated.provider, null);
    assert.deepEqual(updated.prices, { input: 3 });
    assert.equal(updated.match_pattern, "^mine-\\d$");
    const other = randomUUID();
    await assert.rejects(updateModelPrice(db, other, created.id, modelPriceUpdate.parse({ name: "x" })), status(404));
    await assert.rejects(deleteModelPrice(db, other, created.id), status(404));
    await assert.rejects(deleteModelPrice(db, ws, "not-a-uuid"), status(404));
    await deleteModelPrice(db, ws, created.id);
    await assert.rejects(deleteModelPrice(db, ws, created.id), status(404));
    assert.deepEqual(await listModelPrices(db, ws, modelPriceListQuery.parse({ source: "workspace" })), []);
  });

  test("a custom price overrides the shipped one for new runs; sent costs still win; other workspaces keep the shipped price", async () => {
    const before = llmRun("gpt-4o", M);
    await ingestRuns(db, ws, { post: [before] });
    assert.deepEqual(await cost(db, before.id), { prompt: 2.5, completion: 10, total: 12.5, price: "gpt-4o" });

    const price = await createModelPrice(
      db,
      ws,
      modelPriceCreate.parse({ name: "our gpt-4o deal", match_pattern: "^gpt-4o$", prices: { input: 1, output: 4 } }),
    );
    const after = llmRun("gpt-4o", M);
    await ingestRuns(db, ws, { post: [after] });
    assert.deepEqual(await cost(db, after.id), { prompt: 1, completion: 4, total: 5, price: "our gpt-4o deal" });
    // The run stored before keeps the cost it had.
    assert.equal((await cost(db, before.id)).total, 12.5);

    const sent = llmRun("gpt-4o", { ...M, input_cost: 0.25, output_cost: 0.5 });
    await ingestRuns(db, ws, { post: [sent] });
    assert.deepEqual({ ...(await cost(db, sent.id)), price: null }, { prompt: 0.25, completion: 0.5, total: 0.75, price: null });

    const otherWs = (await createWorkspace(db.prisma, "other")).id;
    const elsewhere = llmRun("gpt-4o", M);
    await ingestRuns(db, otherWs, { post: [elsewhere] });
    assert.equal((await cost(db, elsewhere.id)).total, 12.5);

    // A post then a patch (re-derived from the merged row) also uses the workspace's price.
    const split = llmRun("gpt-4o", M);
    await ingestRuns(db, ws, { post: [{ ...split, outputs: undefined, end_time: undefined }] });
    await ingestRuns(db, ws, { patch: [{ id: split.id, end_time: split.end_time, outputs: split.outputs }] });
    assert.equal((await cost(db, split.id)).total, 5);

    await deleteModelPrice(db, ws, price.id);
    const back = llmRun("gpt-4o", M);
    await ingestRuns(db, ws, { post: [back] });
    assert.equal((await cost(db, back.id)).total, 12.5);
  });

  test("start dates: the latest price started by the run's start applies; provider narrows; new models get a price", async () => {
    await createModelPrice(db, ws, modelPriceCreate.parse({ name: "v1", match_pattern: "^house-model$", prices: { input: 1, output: 1 } }));
    await createModelPrice(
      db,
      ws,
      modelPriceCreate.parse({
        name: "v2",
        match_pattern: "^house-model$",
        start_date: "2026-06-01T00:00:00Z",
        prices: { input: 2, output: 2 },
      }),
    );
    await createModelPrice(
      db,
      ws,
      modelPriceCreate.parse({
        name: "azure only",
        match_pattern: "^house-model$",
        provider: "azure",
        start_date: "2027-01-01",
        prices: { input: 9, output: 9 },
      }),
    );
    const early = llmRun("house-model", M, "2026-03-01T00:00:00Z");
    const late = llmRun("house-model", M, "2026-07-01T00:00:00Z");
    const openaiLater = llmRun("house-model", M, "2027-02-01T00:00:00Z");
    await ingestRuns(db, ws, { post: [early, late, openaiLater] });
    assert.equal((await cost(db, early.id)).price, "v1");
    assert.equal((await cost(db, late.id)).price, "v2");
    assert.equal((await cost(db, openaiLater.id)).price, "v2");
    const entries = await workspacePriceEntries(db, ws);
    assert.deepEqual(
      entries.map((e) => e.model),
      ["azure only", "v2", "v1"],
    );
  });
});
