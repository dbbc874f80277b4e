// Where one ingest mode's CPU goes: starts the built server under the V8 profiler, sends requests of 100 runs
// at concurrency 4, prints CPU ms per 100 runs of the server and (PostgreSQL) its database backends, then the
// server's top functions and files by self time.
// Usage: npx tsx bench/profile-ingest.ts [multipart|batch|otlp-proto|otlp-json] [requests]
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startServer } from "../e2e/harness/server";
import { cpuMs, processTree } from "./memory";
import { ingestRequest, type IngestMode, type IngestRequest } from "./requests";

const mode = (process.argv[2] ?? "multipart") as IngestMode;
const REQUESTS = Number(process.argv[3] ?? 200);
const pgUrl = process.env.BENCH_DATABASE_URL ?? null;

async function backendPids(url: string | undefined): Promise<number[]> {
  if (!url) return [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  await client.end();
  return rows.map((r) => r.pid);
}

/** pg_stat_statements (when the server preloads it) and trigger functions' times: reset, or print the top. */
async function statements(url: string | undefined, what: "reset" | "print"): Promise<boolean> {
  if (!url) return false;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    if (what === "reset") {
      await client.query("SELECT pg_stat_statements_reset(), pg_stat_reset()");
      return true;
    }
    const { rows } = await client.query(
      `SELECT calls, round(total_exec_time::numeric / ${REQUESTS}, 2) AS ms_per_req, round(shared_blks_hit::numeric / ${REQUESTS}) AS hits, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS q
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT 25`,
    );
    for (const r of rows)
      console.log(
        `${String(r.ms_per_req).padStart(8)} ms/req ${String(r.hits).padStart(6)} buffers/req ${String(r.calls).padStart(7)} calls ${r.toplevel ? "top" : "   "} ${r.q}`,
      );
    const fns = await client.query(
      `SELECT funcname, calls, round(total_time::numeric / ${REQUESTS}, 2) AS total, round(self_time::numeric / ${REQUESTS}, 2) AS self FROM pg_stat_user_functions ORDER BY total_time DESC LIMIT 15`,
    );
    for (const r of fns.rows) console.log(`fn ${r.funcname}: ${r.calls} calls, ${r.total} ms/req total, ${r.self} self`);
    return true;
  } catch (error) {
    console.log(`no statement statistics: ${(error as Error).message}`);
    return false;
  } finally {
    await client.end();
  }
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "tl-prof-"));
  process.env.E2E_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${dir}`;
  const server = await startServer({ databaseUrl: pgUrl, unclaimed: true });
  const send = async (r: IngestRequest) => {
    const res = await fetch(`${server.url}${r.path}`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": r.contentType },
      body: r.body,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${res.status} ${text}`);
  };
  for (let i = 0; i < 10; i++) await send(ingestRequest(mode, "profile"));
  const requests = Array.from({ length: REQUESTS }, () => ingestRequest(mode, "profile"));
  const cpu = (pids: number[]) => pids.reduce((s, p) => s + cpuMs(p), 0);
  const tree = processTree(server.pid);
  const dbPids = await backendPids(server.databaseUrl);
  const stats = await statements(server.databaseUrl, "reset");
  const before = { server: cpu(tree), db: cpu(dbPids) };
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < requests.length) await send(requests[next++]);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const dbPidsAfter = await backendPids(server.databaseUrl);
  const serverMs = (cpu(tree) - before.server) / REQUESTS;
  const dbMs = (cpu(dbPidsAfter) - before.db) / REQUESTS;
  console.log(
    `${mode}: ${((REQUESTS * 100) / seconds).toFixed(0)} runs/s; CPU ms per 100 runs: server ${serverMs.toFixed(1)}, database ${dbMs.toFixed(1)}`,
  );
  if (stats) await statements(server.databaseUrl, "print");
  await server.stop();
  const file =
    readdirSync(dir).find((f) => f.endsWith(".cpuprofile") && f.includes(String(server.pid))) ??
    readdirSync(dir)
      .filter((f) => f.endsWith(".cpuprofile"))
      .sort()
      .at(-1);
  if (!file) return console.log("no profile written", readdirSync(dir));
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const fn = new Map<string, number>();
  const fileTotals = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0;
    total += us;
    const url = node.callFrame.url.replace(/^file:\/\//, "").replace(process.cwd(), ".");
    const key = `${node.callFrame.functionName || "(anon)"} ${url.split("/").slice(-3).join("/")}:${node.callFrame.lineNumber}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const f = url.includes("node_modules")
      ? url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, "pkg:$1")
      : url.split("/").slice(-3).join("/") || node.callFrame.functionName;
    fileTotals.set(f, (fileTotals.get(f) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
      .join("\n");
  console.log(
    `profile ${file}: ${(total / 1e6).toFixed(1)} s sampled (includes idle)\n-- by file/package\n${top(fileTotals, 30)}\n-- by function\n${top(fn, 40)}`,
  );
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
