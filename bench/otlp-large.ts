// One large OTLP/HTTP export as the LangSmith OTel exporter or an OpenTelemetry SDK sends it after a
// long agent run: 10,000 spans in one request, as OTLP/JSON and as protobuf, of two shapes —
// `many`: 1,000 traces of 10 spans, `one`: a single trace of 10,000 spans (a root with 9,999
// children) — each with its children before its parents, the order a BatchSpanProcessor exports
// spans in (a span is exported when it ends). Prints each request's wall time (median of rounds),
// the server's and (PostgreSQL) its database backends' CPU time, and the server's peak memory.
// Targets (issue 34): < 2 s on PostgreSQL, < 5 s embedded.
// Usage: npx tsx bench/otlp-large.ts [rounds] [spans]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL;
// BENCH_SHAPES=one, BENCH_ENCODINGS=json to run only those)
import pg from "pg";
import { startServer, type RunningServer } from "../e2e/harness/server";
import { cpuMs, peakMb, processTree } from "./memory";
import { otlpJsonOf, otlpProtobufOf } from "./otlp";
import { makeTrace } from "./payloads";
import { percentile } from "./timing";

const ROUNDS = Number(process.argv[2] ?? 3);
const SPANS = Number(process.argv[3] ?? 10_000);
const pgUrl = process.env.BENCH_DATABASE_URL;
const pick = <T extends string>(all: readonly T[], value?: string) => (value ? all.filter((x) => value.split(",").includes(x)) : [...all]);
const SHAPES = pick(["many", "one"] as const, process.env.BENCH_SHAPES);
const ENCODINGS = pick(["json", "proto"] as const, process.env.BENCH_ENCODINGS);
type Shape = (typeof SHAPES)[number];
type Encoding = (typeof ENCODINGS)[number];

/** The spans' runs, children before parents (reverse dotted order, as spans end). */
function runsOf(shape: Shape, project: string): Record<string, unknown>[] {
  const runs =
    shape === "many"
      ? Array.from({ length: Math.ceil(SPANS / 10) }, () => makeTrace(project, 4, 5)).flat()
      : makeTrace(project, Math.floor((SPANS - 1) * 0.45), SPANS - 1 - Math.floor((SPANS - 1) * 0.45));
  return runs.slice(0, SPANS).reverse();
}

function body(encoding: Encoding, runs: Record<string, unknown>[]) {
  return encoding === "json"
    ? { body: otlpJsonOf(runs) as BodyInit, contentType: "application/json" }
    : { body: otlpProtobufOf(runs) as unknown as BodyInit, contentType: "application/x-protobuf" };
}

/**
 * The CPU its database backends spend while `work` runs: polled, since the pool opens and closes
 * connections during a long request (a backend gone by the end would take its time with it).
 */
async function databaseCpu<T>(url: string | undefined, work: Promise<T>): Promise<[T, number]> {
  if (!url) return [await work, 0];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seen = new Map<number, { first: number; last: number }>();
  const poll = async () => {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    for (const { pid } of rows) {
      const ms = cpuMs(pid);
      const entry = seen.get(pid);
      if (!entry) seen.set(pid, { first: 0, last: ms });
      else entry.last = Math.max(entry.last, ms);
    }
  };
  await poll(); // the backends already open: their CPU so far is not this request's
  for (const entry of seen.values()) entry.first = entry.last;
  let done = false;
  const result = work.finally(() => (done = true));
  while (!done) {
    await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, 100))]);
    await poll();
  }
  await client.end();
  return [await result, [...seen.values()].reduce((sum, e) => sum + e.last - e.first, 0)];
}

interface Measure {
  ms: number;
  serverCpu: number;
  databaseCpu: number;
}

async function exportOnce(server: RunningServer, shape: Shape, encoding: Encoding, round: number): Promise<Measure> {
  const request = body(encoding, runsOf(shape, `large-${shape}-${encoding}-${round}`));
  const tree = processTree(server.pid);
  const cpu = (ps: number[]) => ps.reduce((s, p) => s + cpuMs(p), 0);
  const before = cpu(tree);
  const t0 = performance.now();
  const [[status, answer], databaseMs] = await databaseCpu(
    server.databaseUrl,
    fetch(`${server.url}/otel/v1/traces`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": request.contentType },
      body: request.body,
    }).then(async (response) => [response.status, Buffer.from(await response.arrayBuffer())] as const),
  );
  const ms = performance.now() - t0;
  // An export that stored every span answers 200 with an empty body (no partialSuccess).
  if (status !== 200 || answer.length > 2) throw new Error(`${shape}/${encoding}: ${status} ${answer.toString()}`);
  return { ms, serverCpu: cpu(tree) - before, databaseCpu: databaseMs };
}

async function main() {
  const server = await startServer({ databaseUrl: pgUrl ?? null, unclaimed: true });
  try {
    // Warm-up: routes compiled, the project exists, the statements are planned.
    await exportOnce(server, "many", "json", -1);
    console.log(
      `One OTLP export of ${SPANS.toLocaleString("en")} spans — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, median of ${ROUNDS} round(s)`,
    );
    for (const shape of SHAPES) {
      for (const encoding of ENCODINGS) {
        const measures: Measure[] = [];
        for (let round = 0; round < ROUNDS; round++) measures.push(await exportOnce(server, shape, encoding, round));
        const median = (f: (m: Measure) => number) => percentile(measures.map(f), 0.5).toFixed(0);
        console.log(
          `${`${shape} ${shape === "one" ? "trace" : "traces"}, ${encoding}`.padEnd(16)} ${median((m) => m.ms).padStart(6)} ms` +
            `  (rounds ${measures.map((m) => m.ms.toFixed(0)).join(", ")})  CPU ms: server ${median((m) => m.serverCpu)}` +
            (pgUrl ? `, database ${median((m) => m.databaseCpu)}` : ""),
        );
      }
    }
    console.log(`peak server memory: ${peakMb(server.pid).toFixed(0)} MB`);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
