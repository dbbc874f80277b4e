import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { readRun } from "../runs/read";
import { runSelection, selectionFromWire } from "../runs/schema";
import { runStats } from "../runs/stats";
import { ingestRuns } from "./service";
import { storedRow as stored } from "./test-stored";

// Tokens and cost as LLM runs arrive; the rest of ingest: service.test.ts.
withTestDatabases("ingest: tokens and cost", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "ingest token tests")).id;
  });

  test("an LLM run completed by a patch gets tokens from the merged run", async () => {
    const id = randomUUID();
    await ingestRuns(db, ws, {
      post: [
        {
          id,
          name: "ChatOpenAI",
          run_type: "llm",
          start_time: "2024-05-01T12:00:00Z",
          inputs: { messages: [{ role: "user", content: "hi" }] },
          extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
        },
      ],
    });
    await ingestRuns(db, ws, {
      patch: [
        {
          id,
          end_time: "2024-05-01T12:00:02Z",
          events: [{ name: "new_token", time: "2024-05-01T12:00:00.5Z" }],
          outputs: {
            choices: [{ message: { role: "assistant", content: "hello" } }],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          },
        },
      ],
    });
    const row = await stored(db, id);
    assert.equal(row.prompt_tokens, 10);
    assert.equal(row.completion_tokens, 5);
    assert.equal(row.total_tokens, 15);
    assert.equal(row.model, "gpt-4o-mini");
    assert.ok(Number(row.total_cost) > 0);
    assert.ok(row.first_token_time);
  });

  test("a root run answers its trace's tokens and cost, summed over the trace's LLM runs as they arrive", async () => {
    const root = randomUUID();
    const llm = (tokens: [number, number]) => ({
      id: randomUUID(),
      trace_id: root,
      parent_run_id: root,
      name: "ChatOpenAI",
      run_type: "llm",
      start_time: "2024-05-01T12:00:01Z",
      inputs: { messages: [{ role: "user", content: "hi" }] },
      extra: { metadata: { ls_model_name: "gpt-4o-mini" } },
      outputs: { usage: { prompt_tokens: tokens[0], completion_tokens: tokens[1] } },
    });
    const first = llm([100, 20]);
    await ingestRuns(db, ws, {
      post: [{ id: root, trace_id: root, name: "agent", run_type: "chain", start_time: "2024-05-01T12:00:00Z" }, first],
    });
    let wire = (await readRun(db, ws, root))!;
    assert.equal(wire.total_tokens, 120);
    const second = llm([30, 5]);
    await ingestRuns(db, ws, {
      post: [
        second,
        {
          id: randomUUID(),
          trace_id: root,
          parent_run_id: root,
          name: "tool",
          run_type: "tool",
          start_time: "2024-05-01T12:00:02Z",
          outputs: { usage: { prompt_tokens: 999 } },
        },
      ],
    });
    wire = (await readRun(db, ws, root))!;
    assert.equal(wire.prompt_tokens, 130);
    assert.equal(wire.completion_tokens, 25);
    assert.equal(wire.total_tokens, 155);
    const [a, b] = [(await readRun(db, ws, first.id))!, (await readRun(db, ws, second.id))!];
    assert.equal(b.total_tokens, 35, "a child answers its own tokens");
    assert.ok(Math.abs(Number(wire.total_cost) - Number(a.total_cost) - Number(b.total_cost)) < 1e-12);
    const [own] = await db.query<{ total_tokens: number | null }>(sql`SELECT total_tokens FROM runs WHERE id = ${root}`);
    assert.equal(own.total_tokens, null, "the roll-up is kept apart, so project sums count each LLM run once");
    const roots = await runStats(db, ws, selectionFromWire(runSelection.parse({ trace: root, is_root: true })));
    assert.equal(roots.total_tokens, 155, "root-run statistics count their traces' tokens");
    const all = await runStats(db, ws, selectionFromWire(runSelection.parse({ trace: root })));
    const [sum] = await db.query<{ n: number }>(sql`SELECT sum(total_tokens)::float8 AS n FROM runs WHERE trace_id = ${root}`);
    assert.equal(all.total_tokens, sum.n, "all-run statistics count each run's own tokens once");
  });
});
