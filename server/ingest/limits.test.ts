import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError, describeZodError } from "../core/errors";
import type { Part } from "../http/multipart";
import { readRun } from "../runs/read";
import { compactRollups } from "../runs/rollups/compact";
import { readMultipartIngest } from "./multipart";
import { wireRun } from "./schema";
import { ingestBatch, ingestRuns } from "./service";

const wide = (n: number) => "語".repeat(n);
const START = "2026-05-01T10:00:00Z";
const run = (fields: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  name: "ok",
  run_type: "chain",
  start_time: START,
  inputs: {},
  session_name: "limits",
  ...fields,
});
const llm = (model: string, provider: string) =>
  run({ run_type: "llm", extra: { metadata: { ls_model_name: model, ls_provider: provider } }, outputs: { a: 1 } });

const jsonPart = (name: string, value: unknown): Part => {
  const body = Buffer.from(JSON.stringify(value));
  return { name, contentType: "application/json", headers: {}, size: body.length, body };
};

async function unmergeable(db: Sql): Promise<number> {
  await compactRollups(db);
  const [row] = await db.query<{ n: number }>(sql`
    SELECT (SELECT count(*) FROM run_buckets WHERE NOT merged) + (SELECT count(*) FROM run_sketches WHERE NOT merged)
      + (SELECT count(*) FROM feedback_buckets WHERE NOT merged) AS n`);
  return Number(row.n);
}

withTestDatabases("ingest limits on text that reaches an index or a rollup key", (open) => {
  test("POST and PATCH /runs: a name past 500 characters is a 400 naming it; a run type the SDKs do not know is a 422", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    // The route parses the body with wireRun and answers its failure with 400 and this detail.
    for (const name of ["x".repeat(3000), "x".repeat(20 * 1024 * 1024), `${"x".repeat(499)}\u0000`]) {
      const parsed = wireRun.safeParse(run({ name }));
      assert.equal(parsed.success, false);
      assert.match(
        describeZodError(parsed.error!, "body"),
        /^Invalid body: name: a run name is at most 500 characters; this one has [\d,]+$/,
      );
    }
    const refused = (e: unknown) =>
      e instanceof AppError && e.status === 422 && /run_type "agent" is not a run type; use one of tool, chain, llm/.test(e.detail);
    const agent = run({ run_type: "agent" });
    await assert.rejects(ingestRuns(db, ws, { post: [agent] }), refused);
    const stored = run({ name: wide(500) });
    await ingestRuns(db, ws, { post: [stored] });
    assert.equal((await readRun(db, ws, stored.id))!.name, wide(500));
    await assert.rejects(ingestRuns(db, ws, { patch: [{ id: stored.id, run_type: "agent" }] }), refused);
    assert.equal((await readRun(db, ws, stored.id))!.run_type, "chain");
  });

  test("POST /runs/batch: each run past a limit is refused alone with the field named, the rest stored; the fold merges everything", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const good = [run(), run({ run_type: "retriever" }), run({ run_type: "llm", name: wide(500) })];
    const longName = run({ name: "n".repeat(3000) });
    const hugeName = run({ name: "n".repeat(20 * 1024 * 1024) });
    const agent = run({ run_type: "agent" });
    const longType = run({ run_type: "t".repeat(8000) });
    const longProject = run({ session_name: "p".repeat(8000) });
    const longModel = llm("m".repeat(8000), "p".repeat(8000));
    const wideModel = llm(wide(8000), `${wide(99)}😀`);
    const result = await ingestBatch(db, ws, {
      post: [...good, longName, hugeName, agent, longType, longProject, longModel, wideModel],
    });
    const refused = new Map(result.rejected.map((r) => [r.id, r.detail]));
    assert.deepEqual([...refused.keys()].sort(), [longName.id, hugeName.id, agent.id, longType.id, longProject.id].sort());
    assert.match(refused.get(longName.id)!, /name: a run name is at most 500 characters; this one has 3,000/);
    assert.match(refused.get(hugeName.id)!, /name: a run name is at most 500 characters; this one has 20,971,520/);
    assert.match(refused.get(agent.id)!, /run_type "agent" is not a run type/);
    assert.match(refused.get(longType.id)!, /run_type "t{40}" is not a run type/);
    assert.match(refused.get(longProject.id)!, /session_name: a project name is at most 1,000 characters/);
    for (const r of [...good, longModel, wideModel]) assert.ok(await readRun(db, ws, r.id), `${r.id} stored`);
    // A derived model or provider is cut (the run's metadata keeps the whole text), never a surrogate pair in half.
    const [cut] = await db.query<{ model: string; provider: string }>(sql`SELECT model, provider FROM runs WHERE id = ${longModel.id}`);
    assert.deepEqual({ ...cut }, { model: "m".repeat(200), provider: "p".repeat(100) });
    const [wideCut] = await db.query<{ model: string; provider: string }>(sql`SELECT model, provider FROM runs WHERE id = ${wideModel.id}`);
    assert.deepEqual({ ...wideCut }, { model: wide(200), provider: wide(99) });
    assert.equal(
      ((await readRun(db, ws, longModel.id))!.extra as { metadata: { ls_model_name: string } }).metadata.ls_model_name.length,
      8000,
    );
    // The longest values allowed, in 3-byte characters, fit the rollups' merged-key indexes.
    assert.equal(await unmergeable(db), 0);
  });

  test("POST /runs/multipart: a post past a limit is refused alone, the others and their feedback stored", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const [ok, long, agent] = [run(), run({ name: "n".repeat(3000) }), run({ run_type: "agent" })];
    const parts = [ok, long, agent].flatMap(({ inputs, ...fields }) => [
      jsonPart(`post.${fields.id}`, fields),
      jsonPart(`post.${fields.id}.inputs`, inputs),
    ]);
    parts.push(jsonPart(`feedback.${randomUUID()}`, { run_id: ok.id, key: "k", value: wide(500) }));
    const result = await ingestBatch(db, ws, await readMultipartIngest(parts));
    assert.deepEqual(result.rejected.map((r) => r.id).sort(), [long.id, agent.id].sort());
    assert.match(result.rejected.find((r) => r.id === long.id)!.detail, /name: a run name is at most 500 characters/);
    assert.ok(await readRun(db, ws, ok.id));
    assert.equal(await unmergeable(db), 0);
  });
});
