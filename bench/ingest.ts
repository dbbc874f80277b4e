// Ingest throughput of the running server (multipart and batch JSON, as the SDKs send them) against a
// baseline measured in the same run: the same rows written by one bare multi-row INSERT into a fresh
// database of the same kind. Also the share of LLM processing (messages, tokens, cost) in ingest time.
// Usage: npx tsx bench/ingest.ts [rounds]   (BENCH_DATABASE_URL=postgres://… to bench on PostgreSQL)
import { randomUUID } from "node:crypto";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { createWorkspace } from "../server/auth/workspaces";
import { insertNew, type RunRow } from "../server/ingest/write";
import { deriveLlm } from "../server/llm/derive";
import { scratchDatabase, startServer } from "../e2e/harness/server";
import { makeTrace, multipartOf } from "./payloads";

const ROUNDS = Number(process.argv[2] ?? 5);
const REQUESTS = 20; // per mode per round
const TRACES_PER_REQUEST = 10; // 10 runs each: 100 runs per request
const CONCURRENCY = 4;
const pgUrl = process.env.BENCH_DATABASE_URL;

async function pool(n: number, worker: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) await worker(next++);
  }));
}

const requestRuns = () => Array.from({ length: TRACES_PER_REQUEST }, () => makeTrace("bench")).flat();

async function main() {
  const server = await startServer({ databaseUrl: pgUrl ?? null });
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const baselineDb = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  const results: Record<string, number[]> = { multipart: [], batch: [], baseline: [] };
  try {
    await migrate(baselineDb);
    const ws = (await createWorkspace(baselineDb.sql, "bench")).id;
    const project = randomUUID();
    const send = async (mode: string, runs: Record<string, unknown>[]) => {
      const headers: Record<string, string> = { "x-api-key": server.apiKey };
      let body: Buffer | string;
      if (mode === "multipart") {
        const m = multipartOf(runs);
        body = m.body;
        headers["content-type"] = m.contentType;
      } else {
        body = JSON.stringify({ post: runs, patch: [] });
        headers["content-type"] = "application/json";
      }
      const r = await fetch(`${server.url}/runs/${mode}`, { method: "POST", headers, body: body as BodyInit });
      if (r.status !== 202) throw new Error(`${mode}: ${r.status} ${await r.text()}`);
    };
    const bareRows = (runs: Record<string, unknown>[]): RunRow[] => runs.map((r) => ({
      id: r.id as string, project_id: project, trace_id: r.trace_id, parent_run_id: r.parent_run_id ?? null,
      dotted_order: r.dotted_order, is_root: !r.parent_run_id, name: r.name, run_type: r.run_type,
      start_time: r.start_time, end_time: r.end_time, inputs: r.inputs, outputs: r.outputs, extra: r.extra, events: r.events, tags: r.tags ?? [],
      placement_pending: false, tokens_estimated: false,
    }));

    console.log(`server up at ${server.url}; warming up`);
    for (let i = 0; i < 3; i++) await send("multipart", requestRuns()); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ["multipart", "batch", "baseline"]) {
        const payloads = Array.from({ length: REQUESTS }, requestRuns);
        const started = performance.now();
        await pool(REQUESTS, async (i) => {
          if (mode === "baseline") await baselineDb.sql.tx((tx) => insertNew(tx, ws, bareRows(payloads[i])));
          else await send(mode, payloads[i]);
        });
        const seconds = (performance.now() - started) / 1000;
        results[mode].push((REQUESTS * TRACES_PER_REQUEST * 10) / seconds);
        console.log(`round ${round + 1} ${mode}: ${results[mode].at(-1)!.toFixed(0)} runs/s`);
      }
    }

    const runs = Array.from({ length: 100 }, requestRuns).flat();
    const t0 = performance.now();
    for (const r of runs) {
      deriveLlm({ run_type: r.run_type as string, inputs: r.inputs, outputs: r.outputs, extra: r.extra, events: r.events, start_time: new Date(), end_time: new Date() });
    }
    const llmMsPer100 = ((performance.now() - t0) / runs.length) * 100;

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const base = median(results.baseline);
    console.log(`\nIngest benchmark — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, ${ROUNDS} interleaved rounds of ${REQUESTS} requests × 100 runs, concurrency ${CONCURRENCY}`);
    for (const mode of ["multipart", "batch", "baseline"]) {
      const m = median(results[mode]);
      console.log(`${mode.padEnd(10)} median ${m.toFixed(0).padStart(7)} runs/s   (${(m / base).toFixed(2)}× baseline; rounds: ${results[mode].map((x) => x.toFixed(0)).join(", ")})`);
    }
    const serverMsPer100 = 100_000 / median(results.multipart);
    console.log(`LLM processing: ${llmMsPer100.toFixed(2)} ms per 100 runs = ${((llmMsPer100 / serverMsPer100) * 100).toFixed(1)}% of multipart ingest time per 100 runs`);
  } finally {
    await baselineDb.close();
    await scratch?.drop();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
