// Where the server's memory goes, idle after start and at its peak under the ingest bench's load:
// starts the built server with bench/memory-probe.mjs preloaded, waits, asks it for its breakdown
// (RSS, V8 heap, external/ArrayBuffers, PGlite's WebAssembly memory, the rest), then sends the
// ingest bench's requests (multipart, batch, OTLP protobuf and JSON; 20 requests × 100 runs per mode
// and round, 4 at a time) and asks again: now, and the breakdown sampled at the highest RSS. Also
// the server's CPU ms per 100 runs (its process; on PostgreSQL plus its backends) and VmHWM.
// Usage: npx tsx bench/memory-breakdown.ts [rounds=3] [idle seconds=10]
//   BENCH_DATABASE_URL=postgres://… for PostgreSQL; MEMORY_PROBE_SNAPSHOT=1 for heap snapshots
//   (idle and after the load, in MEMORY_PROBE_DIR); MEMORY_NODE_ARGS / MEMORY_ENV="K=V K=V" to try
//   V8 flags or environment on the server; MEMORY_OUTPUT=file keeps what the server printed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startServer, type RunningServer } from "../e2e/harness/server";
import { cpuMs, memoryOf } from "./memory";
import { INGEST_MODES, ingestRequest, sendIngest } from "./requests";

const ROUNDS = Number(process.argv[2] ?? 3);
const IDLE_S = Number(process.argv[3] ?? 10);
const pgUrl = process.env.BENCH_DATABASE_URL;

async function backendCpu(server: RunningServer): Promise<number> {
  if (!server.databaseUrl) return 0;
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows.reduce((sum, r) => sum + cpuMs(r.pid), 0);
  } finally {
    await client.end();
  }
}

async function probe(server: RunningServer, dir: string, n: number) {
  process.kill(server.pid, "SIGUSR2");
  const base = path.join(dir, `memory-${server.pid}-${n}`);
  for (let i = 0; !existsSync(`${base}.done`); i++) {
    if (i > 1200) throw new Error("the probe did not answer");
    await new Promise((r) => setTimeout(r, 100));
  }
  return JSON.parse(readFileSync(`${base}.json`, "utf8"));
}

async function main() {
  const dir = process.env.MEMORY_PROBE_DIR || (await mkdtemp(path.join(tmpdir(), "tracelight-memory-")));
  const probeArgs = `--import ${path.resolve("bench/memory-probe.mjs")} ${process.env.MEMORY_NODE_ARGS ?? ""}`;
  const extraEnv = Object.fromEntries(
    (process.env.MEMORY_ENV ?? "")
      .split(" ")
      .filter(Boolean)
      .map((kv) => kv.split("=", 2)),
  );
  process.env.E2E_NODE_ARGS = `${process.env.E2E_NODE_ARGS ?? ""} ${probeArgs}`;
  const server = await startServer({ databaseUrl: pgUrl ?? null, unclaimed: true, env: { MEMORY_PROBE_DIR: dir, ...extraEnv } });
  try {
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const idle = await probe(server, dir, 1);
    console.log(
      `idle after ${IDLE_S} s (${pgUrl ? "PostgreSQL" : "embedded"}): ${JSON.stringify(idle.now)}; wasm ${JSON.stringify(idle.wasm)}`,
    );
    console.log(`idle mappings: ${JSON.stringify(idle.mappings)}`);
    for (const mode of INGEST_MODES) await sendIngest(server, ingestRequest(mode));
    let runs = 0;
    const cpu0 = cpuMs(server.pid) + (await backendCpu(server));
    for (let round = 0; round < ROUNDS; round++)
      for (const mode of INGEST_MODES) {
        const requests = Array.from({ length: 20 }, () => ingestRequest(mode));
        let next = 0;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < requests.length) await sendIngest(server, requests[next++]);
          }),
        );
        runs += 2000;
      }
    const cpuPer100 = ((cpuMs(server.pid) + (await backendCpu(server)) - cpu0) / runs) * 100;
    const after = await probe(server, dir, 2);
    const hwm = Math.max(...memoryOf(server.pid).map((m) => m.mb));
    console.log(`after the load, now: ${JSON.stringify(after.now)}`);
    console.log(`at the peak RSS: ${JSON.stringify(after.peak)}; wasm ${JSON.stringify(after.wasm)}`);
    console.log(`mappings after the load: ${JSON.stringify(after.mappings)}`);
    console.log(
      `SUMMARY ${pgUrl ? "postgres" : "embedded"}: idle RSS ${idle.now.rssMb} MB; peak VmHWM ${hwm.toFixed(0)} MB; CPU ${cpuPer100.toFixed(1)} ms per 100 runs${pgUrl ? " (server + backends)" : ""}; files in ${dir}`,
    );
  } finally {
    if (process.env.MEMORY_OUTPUT) writeFileSync(process.env.MEMORY_OUTPUT, server.output());
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
