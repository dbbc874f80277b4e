// A mixed load through the running server, as on-call sees it: 8 clients send multipart ingest
// requests of 100 runs back to back while 2 readers page runs and ask for statistics, for 60 s.
// Prints ingest throughput, each kind of request's p50/p99 latency, errors, and the server's peak
// memory. Throughput and latencies are this machine's; compare builds with `npm run bench:ab`.
// Usage: npx tsx bench/mixed.ts [seconds]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { startServer, type RunningServer } from "../e2e/harness/server";
import { memoryOf } from "./memory";
import { makeTrace, multipartOf } from "./payloads";
import { percentile } from "./timing";

const SECONDS = Number(process.argv[2] ?? 60);
const INGEST_CLIENTS = 8;
const READERS = 2;

interface Sample {
  kind: string;
  ms: number;
  ok: boolean;
}

async function timedFetch(samples: Sample[], kind: string, url: string, init: RequestInit): Promise<void> {
  const t0 = performance.now();
  let ok = false;
  try {
    const response = await fetch(url, init);
    await response.arrayBuffer();
    ok = response.status < 300;
  } finally {
    samples.push({ kind, ms: performance.now() - t0, ok });
  }
}

async function load(server: RunningServer, until: number, samples: Sample[], project?: string): Promise<void> {
  const headers = { "x-api-key": server.apiKey };
  const ingest = async () => {
    while (Date.now() < until) {
      const body = multipartOf(Array.from({ length: 10 }, () => makeTrace("mixed", 4, 5)).flat());
      await timedFetch(samples, "ingest", `${server.url}/runs/multipart`, {
        method: "POST",
        headers: { ...headers, "content-type": body.contentType },
        body: body.body as unknown as BodyInit,
      });
    }
  };
  const read = async () => {
    if (!project) return;
    const json = { ...headers, "content-type": "application/json" };
    while (Date.now() < until) {
      await timedFetch(samples, "runs page", `${server.url}/runs/query`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ session: [project], is_root: true, limit: 50 }),
      });
      await timedFetch(samples, "stats", `${server.url}/runs/stats`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ session: [project] }),
      });
    }
  };
  await Promise.all([...Array.from({ length: INGEST_CLIENTS }, ingest), ...Array.from({ length: READERS }, read)]);
}

async function main() {
  const server = await startServer({ databaseUrl: process.env.BENCH_DATABASE_URL ?? null, unclaimed: true });
  try {
    const samples: Sample[] = [];
    await load(server, Date.now() + 5_000, []); // warm-up: the project exists, routes are compiled
    const [project] = (await (await fetch(`${server.url}/sessions?name=mixed`, { headers: { "x-api-key": server.apiKey } })).json()) as {
      id: string;
    }[];
    await load(server, Date.now() + SECONDS * 1000, samples, project.id);
    const ingested = samples.filter((s) => s.kind === "ingest" && s.ok).length * 100;
    console.log(
      `Mixed load — ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}, ${SECONDS} s, ${INGEST_CLIENTS} ingest clients (100 runs a request) and ${READERS} readers`,
    );
    console.log(`ingest: ${(ingested / SECONDS).toFixed(0)} runs/s`);
    for (const kind of ["ingest", "runs page", "stats"]) {
      const ms = samples.filter((s) => s.kind === kind).map((s) => s.ms);
      const errors = samples.filter((s) => s.kind === kind && !s.ok).length;
      console.log(
        `${kind.padEnd(10)} ${String(ms.length).padStart(6)} requests  p50 ${percentile(ms, 0.5).toFixed(0).padStart(5)} ms  p99 ${percentile(ms, 0.99).toFixed(0).padStart(5)} ms  errors ${errors}`,
      );
    }
    console.log(`peak server memory: ${Math.max(...memoryOf(server.pid).map((m) => m.mb)).toFixed(0)} MB`);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
