import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { ingestRuns } from "../ingest/service";
import { queryRuns } from "./query";
import { runQueryBody, runQueryFromWire } from "./schema";
import { readRun } from "./read";
import { readConversation } from "./conversation";

const at = "2026-01-01T00:00:00Z";
const run = (run_type: string, inputs: unknown, outputs: unknown) => ({
  id: randomUUID(),
  name: "r",
  run_type,
  start_time: at,
  end_time: at,
  inputs,
  outputs,
});

withTestDatabases("conversation", (open) => {
  let db: Sql;
  let ws: string;
  const dangling = {
    messages: [
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "tool", tool_call_id: "call_x", content: [{ type: "text", text: "r" }] },
    ],
  };

  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "conversation tests")).id;
  });

  test("a stored run's conversation; 404 material for other workspaces and bad ids", async () => {
    const r = run(
      "llm",
      { model: "claude-3-5-haiku", system: "s", messages: [{ role: "user", content: "q" }] },
      { id: "msg_1", role: "assistant", content: [{ type: "text", text: "a" }], stop_reason: "end_turn" },
    );
    await ingestRuns(db, ws, { post: [r] });
    const c = await readConversation(db, ws, r.id);
    assert.equal(c?.format, "anthropic");
    assert.deepEqual(
      c?.input.map((m) => m.role),
      ["system", "user"],
    );
    assert.deepEqual(c?.output, [{ role: "assistant", blocks: [{ type: "text", text: "a" }] }]);
    const other = (await createWorkspace(db.prisma, "other")).id;
    assert.equal(await readConversation(db, other, r.id), null);
    assert.equal(await readConversation(db, ws, "nope"), null);
  });

  test("GET /runs/{id} carries diagnostics for llm runs only; query pages do not", async () => {
    const llm = run("llm", dangling, null);
    const chain = run("chain", dangling, null);
    const clean = run("llm", { messages: [{ role: "user", content: "hi" }] }, { role: "assistant", content: "yo" });
    await ingestRuns(db, ws, { post: [llm, chain, clean] });
    const read = await readRun(db, ws, llm.id);
    assert.deepEqual(read?.diagnostics, [
      {
        path: "inputs.messages[1].tool_call_id",
        message: 'This tool message answers tool call "call_x", but no earlier assistant message made a tool call with that id.',
      },
    ]);
    assert.equal((await readRun(db, ws, chain.id))?.diagnostics, undefined);
    assert.deepEqual((await readRun(db, ws, clean.id))?.diagnostics, []);
    const page = await queryRuns(db, ws, runQueryFromWire(runQueryBody.parse({ id: [llm.id] })));
    assert.equal(page.runs.length, 1);
    assert.equal("diagnostics" in page.runs[0], false);
  });
});
