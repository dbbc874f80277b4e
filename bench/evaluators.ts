// Online evaluators' throughput on one instance: evaluation jobs per second, the local model server
// answering at once, for runs ingested while a rule is on (ingest → claim → queue → judge → feedback)
// and for a backfill over a past range. Baseline in the same run: the same number of calls made to
// the model server directly, 50 at a time (the size of a job batch), which bounds what any evaluator
// could do on this machine.
// Usage: npx tsx bench/evaluators.ts [runs]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { randomUUID } from "node:crypto";
import { startTestModelServer } from "../server/models/test-server";
import { startServer, type RunningServer } from "../e2e/harness/server";

const RUNS = Number(process.argv[2] ?? 2000);

async function api<T = any>(server: RunningServer, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": server.apiKey, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function ingest(server: RunningServer, projectName: string, n: number, startedAt: number) {
  for (let offset = 0; offset < n; offset += 500) {
    const post = Array.from({ length: Math.min(500, n - offset) }, (_, i) => {
      const id = randomUUID();
      const start = new Date(startedAt + (offset + i) * 10).toISOString();
      return {
        id,
        trace_id: id,
        name: "answer",
        run_type: "chain",
        session_name: projectName,
        start_time: start,
        end_time: start,
        inputs: { q: i },
        outputs: { a: "fine" },
      };
    });
    await api(server, "POST", "/runs/batch", { post });
  }
}

async function evaluatedCount(server: RunningServer): Promise<number> {
  const [project] = await api<{ run_count: number }[]>(server, "GET", "/sessions?name=evaluators&include_stats=true");
  return project?.run_count ?? 0;
}

async function until(done: () => Promise<boolean>) {
  while (!(await done())) await new Promise((r) => setTimeout(r, 100));
}

async function main() {
  const model = await startTestModelServer();
  const server = await startServer({ env: { ALLOW_PRIVATE_EGRESS: "1" }, databaseUrl: process.env.BENCH_DATABASE_URL });
  try {
    await api(server, "POST", "/model-connections", { name: "local", base_url: `${model.url}/v1`, default_model: "gpt-4o-mini" });
    const { evaluator } = await api(server, "POST", "/api/v1/platform/evaluators", {
      name: "ok?",
      llm_evaluator: { prompt: [["user", "Is {output} fine?"]], schema: { type: "object", properties: { ok: { type: "boolean" } } } },
    });

    const body = {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Is fine fine?" }],
      stream: true,
      stream_options: { include_usage: true },
    };
    const directStarted = performance.now();
    for (let i = 0; i < RUNS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, RUNS - i) }, async () => {
          const r = await fetch(`${model.url}/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          await r.text();
        }),
      );
    }
    const direct = RUNS / ((performance.now() - directStarted) / 1000);

    const live = `bench-live-${randomUUID().slice(0, 8)}`;
    await ingest(server, live, 1, Date.now());
    const [liveProject] = await api<{ id: string }[]>(server, "GET", `/sessions?name=${live}`);
    await api(server, "POST", "/runs/rules", { display_name: "live", session_id: liveProject.id, evaluator_id: evaluator.id });
    const liveStarted = performance.now();
    await ingest(server, live, RUNS, Date.now());
    await until(async () => (await evaluatedCount(server)) >= RUNS);
    const liveRate = RUNS / ((performance.now() - liveStarted) / 1000);

    const past = `bench-past-${randomUUID().slice(0, 8)}`;
    await ingest(server, past, RUNS, Date.now() - 86_400_000);
    const [pastProject] = await api<{ id: string }[]>(server, "GET", `/sessions?name=${past}`);
    const rule = await api(server, "POST", "/runs/rules", { display_name: "past", session_id: pastProject.id, evaluator_id: evaluator.id });
    const backfillStarted = performance.now();
    await api(server, "POST", `/runs/rules/${rule.id}/backfills`, { start_time: new Date(Date.now() - 2 * 86_400_000).toISOString() });
    await until(async () => (await api<{ status: string }[]>(server, "GET", `/runs/rules/${rule.id}/backfills`))[0].status === "completed");
    const backfillRate = RUNS / ((performance.now() - backfillStarted) / 1000);

    const line = (name: string, rate: number) =>
      `${name.padEnd(60)} ${rate.toFixed(0).padStart(6)} /s  (${((rate / direct) * 100).toFixed(0)} % of the direct calls)`;
    console.log(`\nEvaluator benchmark — ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}, ${RUNS} runs, one instance`);
    console.log(`${"model calls made directly, 50 at a time (baseline)".padEnd(60)} ${direct.toFixed(0).padStart(6)} /s`);
    console.log(line("evaluations of runs ingested with the rule on (target ≥ 200/s)", liveRate));
    console.log(line("evaluations by a backfill", backfillRate));
  } finally {
    await server.stop();
    await model.close();
  }
}

void main();
