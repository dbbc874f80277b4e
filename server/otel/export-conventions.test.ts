import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { exportTraces } from "./export";
import { newSpanId, protobufBody, row } from "./test-export-bodies";

// How each convention's LLM span is stored; the export itself (trees, order, errors): export.test.ts.

withTestDatabases("otel export: conventions", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "otel convention tests")).id;
  });

  test("every convention's LLM span is an llm run under its parent with tokens and cost", async () => {
    const root = newSpanId();
    const model = {
      openinference: "llm.model_name",
      traceloop: "gen_ai.request.model",
      vercel: "ai.model.id",
      langsmith: "langsmith.metadata.ls_model_name",
    };
    const conventions: Record<keyof typeof model, Record<string, string | number>> = {
      openinference: {
        "openinference.span.kind": "LLM",
        "llm.provider": "openai",
        "llm.token_count.prompt": 100,
        "llm.token_count.completion": 50,
      },
      traceloop: {
        "llm.request.type": "chat",
        "gen_ai.system": "openai",
        "gen_ai.usage.prompt_tokens": 100,
        "gen_ai.usage.completion_tokens": 50,
      },
      vercel: {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.provider": "openai.chat",
        "ai.usage.inputTokens": 100,
        "ai.usage.outputTokens": 50,
      },
      langsmith: {
        "langsmith.span.kind": "llm",
        "langsmith.metadata.ls_provider": "openai",
        "langsmith.usage_metadata": '{"input_tokens":100,"output_tokens":50,"total_tokens":150}',
      },
    };
    const ids = Object.fromEntries(Object.keys(conventions).map((name) => [name, newSpanId()]));
    await exportTraces(db, ws, {
      contentType: "application/x-protobuf",
      bytes: protobufBody([
        { spanId: root, name: "root", startOffsetMs: 0, durationMs: 100 },
        ...Object.entries(conventions).map(([name, attributes], i) => ({
          spanId: ids[name],
          parentSpanId: root,
          name,
          startOffsetMs: i + 1,
          durationMs: 10,
          attributes: { ...attributes, [model[name as keyof typeof model]]: "gpt-4o" },
        })),
      ]),
    });
    const parent = await row(db, root);
    for (const name of Object.keys(conventions)) {
      const r = await row(db, ids[name]);
      assert.equal(r.run_type, "llm", name);
      assert.equal(r.parent_run_id, parent.id, name);
      assert.equal(r.total_tokens, 150, name);
      assert.equal(r.model, "gpt-4o", name);
      assert.ok(Number(r.total_cost) > 0, `${name}: cost ${r.total_cost}`);
    }
  });

  test("time to first chunk and the conversation id reach first_token_time and thread_id", async () => {
    const streamed = newSpanId();
    await exportTraces(db, ws, {
      contentType: "application/x-protobuf",
      bytes: protobufBody([
        {
          spanId: streamed,
          name: "chat",
          startOffsetMs: 0,
          durationMs: 2000,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-4o",
            "gen_ai.response.time_to_first_chunk": 0.35,
            "gen_ai.conversation.id": "conv-42",
          },
        },
      ]),
    });
    const r = await row(db, streamed);
    assert.equal(new Date(r.first_token_time).getTime() - new Date(r.start_time).getTime(), 350);
    assert.equal(r.thread_id, "conv-42");
  });
});
