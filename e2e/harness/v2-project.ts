import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { call } from "./http";
import type { RunningServer } from "./server";

/** How many traces the v2 suites' project holds: four runs each (chain, retriever, llm, tool). */
export const TRACES = 250;

/** A trace of the seeded project: its runs' ids (root first), its LLM run's tokens, and whether it failed. */
export interface SeededTrace {
  ids: string[];
  tokens: number;
  errored: boolean;
}

/**
 * Ingests the v2 suites' project: TRACES traces an hour ago, a second apart, every tenth failed, the
 * first 30 taking turns in three threads (`thread-0` … `thread-2`). Answers the project and its traces.
 */
export async function seedV2Project(
  server: RunningServer,
): Promise<{ projectName: string; projectId: string; traces: Map<string, SeededTrace> }> {
  const projectName = `v2-${randomUUID().slice(0, 8)}`;
  const traces = new Map<string, SeededTrace>();
  const base = Date.now() - 3_600_000;
  const post: Record<string, unknown>[] = [];
  for (let t = 0; t < TRACES; t++) {
    const root = randomUUID();
    const start = (ms: number) => new Date(base + t * 1000 + ms).toISOString();
    const kids = [randomUUID(), randomUUID(), randomUUID()];
    const tokens = 10 + t;
    const errored = t % 10 === 0;
    traces.set(root, { ids: [root, ...kids], tokens, errored });
    post.push({
      id: root,
      trace_id: root,
      name: "agent",
      run_type: "chain",
      session_name: projectName,
      start_time: start(0),
      end_time: start(900),
      inputs: { t },
      outputs: { ok: true },
      ...(errored ? { error: "boom" } : {}),
      ...(t < 30 ? { extra: { metadata: { thread_id: `thread-${t % 3}` } } } : {}),
    });
    post.push({
      id: kids[0],
      trace_id: root,
      parent_run_id: root,
      name: "retrieve",
      run_type: "retriever",
      session_name: projectName,
      start_time: start(10),
      end_time: start(100),
      inputs: { q: t },
      outputs: {},
    });
    post.push({
      id: kids[1],
      trace_id: root,
      parent_run_id: root,
      name: "ChatOpenAI",
      run_type: "llm",
      session_name: projectName,
      start_time: start(200),
      end_time: start(800),
      inputs: { messages: [{ role: "user", content: `question ${t}` }] },
      outputs: {
        choices: [{ message: { role: "assistant", content: "answer" } }],
        usage_metadata: { input_tokens: tokens - 5, output_tokens: 5, total_tokens: tokens },
      },
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    });
    post.push({
      id: kids[2],
      trace_id: root,
      parent_run_id: root,
      name: "format",
      run_type: "tool",
      session_name: projectName,
      start_time: start(850),
      end_time: start(880),
      inputs: {},
      outputs: {},
    });
  }
  for (let i = 0; i < post.length; i += 500)
    assert.equal((await call(server, "POST", "/runs/batch", { post: post.slice(i, i + 500) })).status, 202);
  const projectId = (await call(server, "GET", `/sessions?name=${projectName}`)).body[0].id as string;
  return { projectName, projectId, traces };
}

/** The traces of one thread (the first 30 traces take turns in three threads), oldest first. */
export const threadTraces = (traces: Map<string, SeededTrace>, n: number) => [...traces.keys()].slice(0, 30).filter((_, t) => t % 3 === n);
