import { randomUUID } from "node:crypto";

// Random traces for the rollups' property test: what an application sends, in any order.

/** A run as an SDK posts or patches it: the fields these traces use (a test-side type, so no import of ingest). */
export type SentRun = {
  id: string;
  trace_id: string;
  dotted_order: string;
  parent_run_id?: string;
  name?: string;
  run_type?: string;
  session_id?: string;
  start_time?: string;
  end_time?: string;
  inputs?: unknown;
  outputs?: unknown;
  extra?: Record<string, unknown>;
  events?: unknown[];
  error?: string;
};

/** A small deterministic generator (mulberry32), so a failure reproduces. */
export function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

export const DAY = Date.parse("2026-05-01T00:00:00Z");
const MODELS = ["gpt-4o", "claude-3-5-sonnet", null] as const;

export interface Plan {
  posts: SentRun[];
  patches: SentRun[];
  runIds: string[];
}

/** Traces of a chain root with LLM and tool children; some runs are posted open and completed by a patch. */
export function plan(rand: ReturnType<typeof random>, projects: string[], traces: number): Plan {
  const posts: SentRun[] = [];
  const patches: SentRun[] = [];
  const runIds: string[] = [];
  for (let t = 0; t < traces; t++) {
    const project = rand.pick(projects);
    const rootId = randomUUID();
    const start = DAY + rand.int(3 * 86_400_000);
    const stamp = (ms: number, id: string) =>
      `${new Date(ms).toISOString().replace(/[-:.]/g, "").slice(0, 15)}${String(ms % 1000).padStart(3, "0")}000Z${id}`;
    const rootOrder = stamp(start, rootId);
    const runs: SentRun[] = [
      {
        id: rootId,
        trace_id: rootId,
        dotted_order: rootOrder,
        name: rand.pick(["agent", "rag", "chat"]),
        run_type: "chain",
        session_id: project,
        start_time: new Date(start).toISOString(),
        inputs: { q: `question ${t}` },
      },
    ];
    const children = rand.int(4);
    for (let c = 0; c < children; c++) {
      const id = randomUUID();
      const childStart = start + 1 + c * 10;
      const llm = rand.next() < 0.7;
      const model = rand.pick(MODELS);
      runs.push({
        id,
        trace_id: rootId,
        parent_run_id: rootId,
        dotted_order: `${rootOrder}.${stamp(childStart, id)}`,
        name: llm ? rand.pick(["ChatOpenAI", "ChatAnthropic"]) : "search",
        run_type: llm ? "llm" : "tool",
        session_id: project,
        start_time: new Date(childStart).toISOString(),
        inputs: { messages: [{ role: "user", content: "hi" }] },
        extra: model ? { metadata: { ls_model_name: model, ls_provider: model.startsWith("gpt") ? "openai" : "anthropic" } } : undefined,
      });
    }
    for (const run of runs) {
      runIds.push(run.id!);
      const startMs = Date.parse(run.start_time as string);
      const end = new Date(startMs + 1 + rand.int(20_000)).toISOString();
      const outputs =
        run.run_type === "llm"
          ? {
              generations: [{ text: "ok" }],
              usage_metadata: {
                input_tokens: rand.int(2000),
                output_tokens: rand.int(500),
                ...(rand.next() < 0.3 ? { input_cost: rand.int(1000) / 1e5, output_cost: rand.int(1000) / 1e5 } : {}),
              },
            }
          : { answer: "done" };
      const events =
        run.run_type === "llm" && rand.next() < 0.5 ? [{ name: "new_token", time: new Date(startMs + rand.int(900)).toISOString() }] : [];
      const error = rand.next() < 0.1 ? "Boom" : undefined;
      if (rand.next() < 0.5) posts.push({ ...run, end_time: end, outputs, events, error });
      else {
        posts.push(run);
        patches.push({ id: run.id, trace_id: run.trace_id, dotted_order: run.dotted_order, end_time: end, outputs, events, error });
      }
    }
  }
  return { posts, patches, runIds };
}

/** Batches of the operations in shuffled order: children often arrive before their parents. */
export function batches<T>(rand: ReturnType<typeof random>, items: T[], size: number): T[][] {
  const shuffled = [...items];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rand.int(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const out: T[][] = [];
  for (let i = 0; i < shuffled.length; i += size) out.push(shuffled.slice(i, i + size));
  return out;
}
