// An A/B of ingest between this build and another one (`npm run bench:ab <ref>` builds it in a
// worktree and calls this): both servers run side by side on the same kind of database, and each
// round sends the same kind of requests to both, in alternating order, per mode (multipart and
// batch JSON as the SDKs send them, OTLP protobuf and JSON). Prints, per mode, each build's median
// throughput and the ratio new/old with its spread over the rounds, then both servers' peak memory.
// Throughput on a busy machine moves with whatever else runs, so each build's CPU time per 100 runs
// is measured too — the server process's, and on PostgreSQL its database backends' — which moves
// far less.
// Usage: npx tsx bench/ab.ts <other-build-dir> [rounds]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import pg from "pg";
import { startServer, type RunningServer } from "../e2e/harness/server";
import { cpuMs, memoryOf, processTree } from "./memory";
import { INGEST_MODES, ingestRequest, sendIngest, type IngestMode, type IngestRequest } from "./requests";

const [otherDir, roundsArg] = process.argv.slice(2);
const ROUNDS = Number(roundsArg ?? 5);
const REQUESTS = 20; // per mode, build and round
const CONCURRENCY = 4;
const pgUrl = process.env.BENCH_DATABASE_URL;
const MODES = INGEST_MODES;
type Mode = IngestMode;
type Build = "new" | "old";

interface Measure {
  perSecond: number;
  /** CPU ms per 100 runs: the server's process tree, and its database's backends. */
  serverCpu: number;
  databaseCpu: number;
}

/** The PostgreSQL backends serving a server's database (none when embedded). */
async function backends(server: RunningServer): Promise<number[]> {
  if (!server.databaseUrl) return [];
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** Runs per second for the requests at CONCURRENCY, and the CPU time they cost. */
async function measure(server: RunningServer, requests: IngestRequest[]): Promise<Measure> {
  const cpu = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuMs(pid)]));
  const tree = processTree(server.pid);
  const before = { server: cpu(tree), database: cpu(await backends(server)) };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) await sendIngest(server, requests[next++]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // Per process, what it used during the round (a backend that started meanwhile counts whole).
  const spent = (now: Map<number, number>, then: Map<number, number>) =>
    [...now].reduce((sum, [pid, ms]) => sum + ms - (then.get(pid) ?? 0), 0) / requests.length;
  return {
    perSecond: (requests.length * 100) / seconds,
    serverCpu: spent(cpu(tree), before.server),
    databaseCpu: spent(cpu(await backends(server)), before.database),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs: number[]) => `${median(xs).toFixed(2)}× (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
const cpuTotal = (m: Measure) => m.serverCpu + m.databaseCpu;

function report(figures: Record<Mode, Record<Build, Measure[]>>): void {
  console.log(
    `\nA/B ingest — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, ${ROUNDS} interleaved rounds of ${REQUESTS} requests × 100 runs (or spans), concurrency ${CONCURRENCY}; new = this tree, old = ${otherDir}`,
  );
  console.log(
    `mode        runs/s new / old = new/old (spread)     CPU ms per 100 runs${pgUrl ? " (server + database)" : ""}: new / old = new/old (spread)`,
  );
  for (const mode of MODES) {
    const { new: a, old: b } = figures[mode];
    const split = (ms: Measure[]) =>
      pgUrl
        ? `${median(ms.map((m) => m.serverCpu)).toFixed(1)} + ${median(ms.map((m) => m.databaseCpu)).toFixed(1)}`
        : median(ms.map(cpuTotal)).toFixed(1);
    console.log(
      `${mode.padEnd(10)} ${median(a.map((m) => m.perSecond))
        .toFixed(0)
        .padStart(6)} / ${median(b.map((m) => m.perSecond))
        .toFixed(0)
        .padStart(
          6,
        )} = ${spread(a.map((x, i) => x.perSecond / b[i].perSecond))}     ${split(a)} / ${split(b)} = ${spread(a.map((x, i) => cpuTotal(x) / cpuTotal(b[i])))}`,
    );
  }
}

async function main() {
  if (!otherDir) throw new Error("Usage: npx tsx bench/ab.ts <other-build-dir> [rounds]");
  const databaseUrl = pgUrl ?? null;
  const first = await startServer({ databaseUrl, unclaimed: true });
  // If the other build fails to start, stop this one rather than leave it running.
  const second = await startServer({ databaseUrl, unclaimed: true, dir: otherDir }).catch(async (error: unknown) => {
    await first.stop();
    throw error;
  });
  const builds: Record<Build, RunningServer> = { new: first, old: second };
  const figures = Object.fromEntries(MODES.map((m) => [m, { new: [], old: [] }])) as unknown as Record<Mode, Record<Build, Measure[]>>;
  try {
    for (const mode of MODES) for (const server of Object.values(builds)) await sendIngest(server, ingestRequest(mode, "bench-ab")); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const order: Build[] = round % 2 === 0 ? ["new", "old"] : ["old", "new"];
        for (const build of order)
          figures[mode][build].push(
            await measure(
              builds[build],
              Array.from({ length: REQUESTS }, () => ingestRequest(mode, "bench-ab")),
            ),
          );
        const line = (m: Measure) => `${m.perSecond.toFixed(0).padStart(6)}/s ${cpuTotal(m).toFixed(1).padStart(6)} ms cpu`;
        console.log(
          `round ${round + 1} ${mode.padEnd(10)} new ${line(figures[mode].new.at(-1)!)}   old ${line(figures[mode].old.at(-1)!)}`,
        );
      }
    }
    report(figures);
    for (const [build, server] of Object.entries(builds)) {
      const memory = memoryOf(server.pid);
      console.log(
        `peak memory ${build}: ${Math.max(...memory.map((m) => m.mb)).toFixed(0)} MB (${memory.map((m) => `${m.command.split(" ").at(-1)} ${m.mb.toFixed(0)} MB`).join(", ")})`,
      );
    }
  } finally {
    await Promise.all(Object.values(builds).map((s) => s.stop()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
