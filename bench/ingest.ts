// Ingest throughput of the running server (multipart and batch JSON, as the SDKs send them; the same
// runs as OTLP spans, protobuf and JSON; multipart of a run set without LLM runs) against a baseline
// measured in the same run: the same rows written by one bare multi-row INSERT into a fresh database
// of the same kind. Also the share of LLM processing (messages, tokens, cost) in ingest time, and the
// server's peak memory (VmHWM over the server process tree). The cost of the analytics rollups: the same
// multipart requests to a second server whose database has the rollup triggers switched off. The
// `langfuse` mode posts the same runs as Langfuse ingestion batches (POST /api/public/ingestion).
// Usage: npx tsx bench/ingest.ts [rounds]   (BENCH_DATABASE_URL=postgres://… to bench on PostgreSQL;
// BENCH_MODES=multipart,langfuse to run only those modes, for a quick look at one of them)
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../server/db/client";
import { createSession } from "../server/sessions/service";
import { migrate } from "../server/db/migrate";
import { sql } from "../server/db/sql";
import { createWorkspace } from "../server/auth/workspaces";
import { insertNew, type RunRow } from "../server/runs/write";
import { deriveLlm } from "../server/llm/derive";
import { scratchDatabase, startServer } from "../e2e/harness/server";
import { langfuseBatchOf } from "./langfuse";
import { otlpJsonOf, otlpProtobufOf } from "./otlp";
import { makeTrace, multipartOf } from "./payloads";
import { memoryOf } from "./memory";

const ROUNDS = Number(process.argv[2] ?? 5);
const REQUESTS = 20; // per mode per round
const TRACES_PER_REQUEST = 10; // 10 runs each: 100 runs per request
const CONCURRENCY = 4;
const pgUrl = process.env.BENCH_DATABASE_URL;

async function pool(n: number, worker: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await worker(next++);
    }),
  );
}

const ALL_MODES = [
  "multipart",
  "batch",
  "otlp-proto",
  "otlp-json",
  "langfuse",
  "multipart-nollm",
  "multipart-norollup",
  "baseline",
] as const;
type Mode = (typeof ALL_MODES)[number];
const only = process.env.BENCH_MODES?.split(",").map((m) => m.trim());
const MODES = only ? ALL_MODES.filter((m) => only.includes(m)) : ALL_MODES;
const ran = (mode: Mode) => MODES.includes(mode);

const requestRuns = (llm = true) => Array.from({ length: TRACES_PER_REQUEST }, () => makeTrace("bench", 4, 5, { llm })).flat();

/** A server like the benched one whose database keeps no analytics rollups (their triggers off). */
async function serverWithoutRollups() {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const dataDir = await mkdtemp(path.join(tmpdir(), "tracelight-bench-"));
  const db = await openDatabase(scratch ? { url: scratch.url } : { dataDir: path.join(dataDir, "pg") });
  await migrate(db);
  const triggers = await db.sql.query<{ tbl: string; name: string }>(sql`
    SELECT tgrelid::regclass::text AS tbl, tgname AS name FROM pg_trigger WHERE tgname LIKE '%rollup%'`);
  for (const t of triggers) await db.execScript(`ALTER TABLE ${t.tbl} DISABLE TRIGGER "${t.name}"`);
  await db.close();
  const server = await startServer(scratch ? { env: { DATABASE_URL: scratch.url } } : { databaseUrl: null, env: { DATA_DIR: dataDir } });
  return { ...server, stop: async () => (await server.stop(), await scratch?.drop()) };
}

async function main() {
  const server = await startServer({ databaseUrl: pgUrl ?? null });
  const plain = ran("multipart-norollup") ? await serverWithoutRollups() : server;
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  // PGlite in this thread, as the baseline was before the server ran it in a worker thread: the
  // database's own cost, without the worker's hand-off (which the server pays, and is measured with).
  const baselineDb = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory", worker: false });
  const results = Object.fromEntries(ALL_MODES.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
  try {
    await migrate(baselineDb);
    const ws = (await createWorkspace(baselineDb.prisma, "bench")).id;
    const project = (await createSession(baselineDb.sql, ws, { name: "baseline" })).id as string;
    // Request bodies are encoded before the clock starts: the bench measures the server.
    const encode = (mode: Mode, runs: Record<string, unknown>[]): { path: string; body: BodyInit; contentType: string; status: number } => {
      if (mode === "multipart" || mode === "multipart-nollm" || mode === "multipart-norollup") {
        const m = multipartOf(runs);
        return { path: "/runs/multipart", body: m.body as unknown as BodyInit, contentType: m.contentType, status: 202 };
      }
      if (mode === "batch")
        return { path: "/runs/batch", body: JSON.stringify({ post: runs, patch: [] }), contentType: "application/json", status: 202 };
      if (mode === "langfuse") {
        return { path: "/api/public/ingestion", body: langfuseBatchOf(runs), contentType: "application/json", status: 207 };
      }
      if (mode === "otlp-proto")
        return {
          path: "/otel/v1/traces",
          body: otlpProtobufOf(runs) as unknown as BodyInit,
          contentType: "application/x-protobuf",
          status: 200,
        };
      return { path: "/otel/v1/traces", body: otlpJsonOf(runs), contentType: "application/json", status: 200 };
    };
    const send = async (mode: Mode, request: ReturnType<typeof encode>) => {
      const target = mode === "multipart-norollup" ? plain : server;
      const r = await fetch(`${target.url}${request.path}`, {
        method: "POST",
        headers:
          mode === "langfuse"
            ? { authorization: `Basic ${Buffer.from(`bench:${target.apiKey}`).toString("base64")}`, "content-type": request.contentType }
            : { "x-api-key": target.apiKey, "content-type": request.contentType },
        body: request.body,
      });
      const answer = await r.arrayBuffer();
      if (r.status !== request.status) throw new Error(`${mode}: ${r.status} ${Buffer.from(answer).toString()}`);
      // OTLP answers partialSuccess when spans were rejected: every span must be accepted.
      if (mode.startsWith("otlp") && answer.byteLength > 2) throw new Error(`${mode}: partial success ${Buffer.from(answer).toString()}`);
      // Langfuse answers 207 whatever happens: every event must have succeeded.
      if (mode === "langfuse" && JSON.parse(Buffer.from(answer).toString()).errors.length)
        throw new Error(`${mode}: event errors ${Buffer.from(answer).toString().slice(0, 500)}`);
    };
    const bareRows = (runs: Record<string, unknown>[]): RunRow[] =>
      runs.map((r) => ({
        id: r.id as string,
        project_id: project,
        trace_id: r.trace_id,
        parent_run_id: r.parent_run_id ?? null,
        dotted_order: r.dotted_order,
        is_root: !r.parent_run_id,
        name: r.name,
        run_type: r.run_type,
        start_time: r.start_time,
        end_time: r.end_time,
        inputs: r.inputs,
        outputs: r.outputs,
        extra: r.extra,
        events: r.events,
        tags: r.tags ?? [],
        placement_pending: false,
        tokens_estimated: false,
      }));

    console.log(`server up at ${server.url}; warming up`);
    for (const mode of MODES) if (mode !== "baseline") await send(mode, encode(mode, requestRuns(mode !== "multipart-nollm"))); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const payloads = Array.from({ length: REQUESTS }, () => requestRuns(mode !== "multipart-nollm"));
        const requests = mode === "baseline" ? [] : payloads.map((runs) => encode(mode, runs));
        const started = performance.now();
        await pool(REQUESTS, async (i) => {
          if (mode === "baseline") await baselineDb.sql.tx((tx) => insertNew(tx, ws, bareRows(payloads[i])));
          else await send(mode, requests[i]);
        });
        const seconds = (performance.now() - started) / 1000;
        results[mode].push((REQUESTS * TRACES_PER_REQUEST * 10) / seconds);
        console.log(`round ${round + 1} ${mode}: ${results[mode].at(-1)!.toFixed(0)} ${mode.startsWith("otlp") ? "spans" : "runs"}/s`);
      }
    }

    const runs = Array.from({ length: 100 }, requestRuns).flat();
    const t0 = performance.now();
    for (const r of runs) {
      deriveLlm({
        run_type: r.run_type as string,
        inputs: r.inputs,
        outputs: r.outputs,
        extra: r.extra,
        events: r.events,
        start_time: new Date(),
        end_time: new Date(),
      });
    }
    const llmMsPer100 = ((performance.now() - t0) / runs.length) * 100;

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const base = median(results.baseline);
    console.log(
      `\nIngest benchmark — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, ${ROUNDS} interleaved rounds of ${REQUESTS} requests × 100 runs (or spans), concurrency ${CONCURRENCY}`,
    );
    for (const mode of MODES) {
      const m = median(results[mode]);
      const unit = mode.startsWith("otlp") ? "spans/s" : "runs/s ";
      console.log(
        `${mode.padEnd(15)} median ${m.toFixed(0).padStart(7)} ${unit}  (${base ? `${(m / base).toFixed(2)}× baseline; ` : ""}rounds: ${results[mode].map((x) => x.toFixed(0)).join(", ")})`,
      );
    }
    const multipart = median(results.multipart);
    if (ran("langfuse") && ran("multipart")) {
      const ratio = median(results.langfuse) / multipart;
      console.log(`langfuse: ${ratio.toFixed(2)}× multipart (target ≥ 0.80×) ${ratio >= 0.8 ? "OK" : "MISSED"}`);
    }
    if (only) return; // a partial run: the summaries below need every mode
    for (const mode of ["otlp-proto", "otlp-json"] as const) {
      const ratio = median(results[mode]) / multipart;
      console.log(`${mode}: ${ratio.toFixed(2)}× multipart (target: within 2×, i.e. ≥ 0.50×) ${ratio >= 0.5 ? "OK" : "MISSED"}`);
    }
    const processingCost = 1 - multipart / median(results["multipart-nollm"]);
    console.log(
      `LLM processing on vs off (multipart vs multipart-nollm, same run sizes): ${(multipart / median(results["multipart-nollm"])).toFixed(2)}× = ${(processingCost * 100).toFixed(1)}% of throughput (target ≤ 25%) ${processingCost <= 0.25 ? "OK" : "MISSED"}`,
    );
    const rollupCost = 1 - multipart / median(results["multipart-norollup"]);
    console.log(
      `Analytics rollups on vs off (multipart vs multipart-norollup): ${(multipart / median(results["multipart-norollup"])).toFixed(2)}× = ${(rollupCost * 100).toFixed(1)}% of throughput (target ≤ 10%) ${rollupCost <= 0.1 ? "OK" : "MISSED"}`,
    );
    const serverMsPer100 = 100_000 / multipart;
    console.log(
      `LLM processing in isolation: ${llmMsPer100.toFixed(2)} ms per 100 runs = ${((llmMsPer100 / serverMsPer100) * 100).toFixed(1)}% of multipart ingest time per 100 runs`,
    );
    const memory = memoryOf(server.pid);
    const peak = Math.max(...memory.map((m) => m.mb));
    const target = pgUrl ? 350 : 450; // issue 34; where it goes: bench/memory-breakdown.ts, docs/benchmarks.md "Memory"
    console.log(
      `Peak server memory (VmHWM, max over the server process tree): ${peak.toFixed(0)} MB (target ≤ ${target} MB) ${peak <= target ? "OK" : "MISSED"}; ${memory.map((m) => `pid ${m.pid} ${m.mb.toFixed(0)} MB (${m.command})`).join("; ")}`,
    );
    console.log(
      `Ratio to baseline: multipart ${(multipart / base).toFixed(2)}×, batch ${(median(results.batch) / base).toFixed(2)}× (target on PostgreSQL: ≥ 0.50×)`,
    );
  } finally {
    await baselineDb.close();
    await scratch?.drop();
    await server.stop();
    if (plain !== server) await plain.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
