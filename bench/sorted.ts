// The runs table sorted by tokens or cost over one large project (issue 34): each page through the
// indexes (server/runs/sorted-index.ts, what the table does now) against the scan with a top-N sort
// it replaces (server/runs/sorted.ts `scannedRuns`, what it did before), in the same run, with
// p50/p95 and which path answered. BENCH_DEBUG=1 prints EXPLAIN ANALYZE of both for each case.
// Usage: npx tsx bench/sorted.ts [runs]   (default 1,000,000; BENCH_DATABASE_URL=postgres://… for
// PostgreSQL, the embedded database otherwise)
import { randomUUID } from "node:crypto";
import { openDatabase, type Database } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { compile, sql } from "../server/db/sql";
import { serializeRuns } from "../server/runs/read";
import type { RunSelection } from "../server/runs/selection";
import { scannedRuns, sortedRuns, type SortKey } from "../server/runs/sorted";
import { indexedRuns } from "../server/runs/sorted-index";
import { TABLE_FIELDS } from "../server/runs/table";
import { scratchDatabase } from "../e2e/harness/server";
import { seedRuns } from "./query-seed";
import { percentile } from "./timing";

const pgUrl = process.env.BENCH_DATABASE_URL;
const TOTAL = Number(process.argv[2] ?? 1_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 7);
const LIMIT = 100;

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const started = performance.now();
    await fn();
    out.push(performance.now() - started);
  }
  return out;
}

async function main() {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const db: Database = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  try {
    await migrate(db);
    const ws = randomUUID();
    const project = randomUUID();
    await db.sql.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${project}, ${ws}, 'sorted')`);
    console.log(`Seeding ${TOTAL.toLocaleString()} runs into one project (${pgUrl ? "PostgreSQL" : "embedded PGlite"})…`);
    const started = performance.now();
    await seedRuns(db, ws, Array(10).fill(project), TOTAL, (s) => console.log(s));
    console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(0)}s`);
    const q = db.sql;
    const day = 86_400_000;
    const cases: { name: string; selection: RunSelection; sort: { by: SortKey; dir: "asc" | "desc" }; offset: number }[] = [
      {
        name: "root runs by tokens, desc",
        selection: { projectIds: [project], isRoot: true },
        sort: { by: "total_tokens", dir: "desc" },
        offset: 0,
      },
      {
        name: "root runs by cost, desc",
        selection: { projectIds: [project], isRoot: true },
        sort: { by: "total_cost", dir: "desc" },
        offset: 0,
      },
      {
        name: "root runs by cost, asc",
        selection: { projectIds: [project], isRoot: true },
        sort: { by: "total_cost", dir: "asc" },
        offset: 0,
      },
      {
        name: "root runs by tokens, 3rd page",
        selection: { projectIds: [project], isRoot: true },
        sort: { by: "total_tokens", dir: "desc" },
        offset: 200,
      },
      { name: "every run by tokens, desc", selection: { projectIds: [project] }, sort: { by: "total_tokens", dir: "desc" }, offset: 0 },
      { name: "every run by cost, asc", selection: { projectIds: [project] }, sort: { by: "total_cost", dir: "asc" }, offset: 0 },
      {
        name: "root runs, last 7 days, by cost",
        selection: { projectIds: [project], isRoot: true, startTime: new Date(Date.now() - 7 * day).toISOString() },
        sort: { by: "total_cost", dir: "desc" },
        offset: 0,
      },
      {
        name: "root runs named agent, by tokens",
        selection: { projectIds: [project], isRoot: true, filter: 'eq(name, "agent")' },
        sort: { by: "total_tokens", dir: "desc" },
        offset: 0,
      },
      {
        name: "LLM runs, by cost",
        selection: { projectIds: [project], isRoot: false, runType: "llm" },
        sort: { by: "total_cost", dir: "desc" },
        offset: 0,
      },
      {
        name: "root runs, last 24 hours, by tokens",
        selection: { projectIds: [project], isRoot: true, startTime: new Date(Date.now() - day).toISOString() },
        sort: { by: "total_tokens", dir: "desc" },
        offset: 0,
      },
    ];
    console.log("");
    for (const c of cases) {
      const fields = new Set<string>(TABLE_FIELDS);
      const want = c.offset + LIMIT + 1;
      const indexed = await indexedRuns(
        q,
        ws,
        c.selection as RunSelection & { projectIds: [string] },
        c.sort.by as "total_tokens",
        c.sort.dir,
        want,
      );
      const scanned = await scannedRuns(q, ws, c.selection, c.sort, c.offset, LIMIT);
      if (
        indexed &&
        indexed
          .slice(c.offset)
          .map((r) => r.id)
          .join() !== scanned.map((r) => r.id).join()
      )
        throw new Error(`${c.name}: the indexes and the scan disagree`);
      const now = await time(() => sortedRuns(q, ws, c.selection, c.sort, c.offset, LIMIT, [...fields]));
      const before = await time(async () => serializeRuns(q, ws, await scannedRuns(q, ws, c.selection, c.sort, c.offset, LIMIT), fields));
      const p50 = percentile(now, 0.5);
      const b50 = percentile(before, 0.5);
      console.log(
        `${c.name.padEnd(40)} ${indexed ? "index" : "scan "}  p50 ${p50.toFixed(1).padStart(8)} ms  p95 ${percentile(now, 0.95).toFixed(1).padStart(8)} ms` +
          `   scan p50 ${b50.toFixed(1).padStart(8)} ms  (${(b50 / p50).toFixed(1)}x)`,
      );
      if (process.env.BENCH_DEBUG) await explain(db, ws, c);
    }
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

/** EXPLAIN ANALYZE of the statements each path runs for a case, captured by wrapping the handle's query. */
async function explain(
  db: Database,
  ws: string,
  c: { selection: RunSelection; sort: { by: SortKey; dir: "asc" | "desc" }; offset: number },
) {
  const statements: string[] = [];
  const q = db.sql;
  const original = q.query.bind(q);
  q.query = (async (fragment: Parameters<typeof q.query>[0]) => {
    const { text } = compile(fragment);
    if (!text.startsWith("EXPLAIN")) {
      const plan = await original<{ "QUERY PLAN": string }>(sql`EXPLAIN (ANALYZE, BUFFERS) ${fragment}`);
      statements.push(plan.map((r) => r["QUERY PLAN"]).join("\n"));
    }
    return original(fragment);
  }) as typeof q.query;
  try {
    await indexedRuns(
      q,
      ws,
      c.selection as RunSelection & { projectIds: [string] },
      c.sort.by as "total_tokens",
      c.sort.dir,
      c.offset + LIMIT + 1,
    );
    console.log("  -- indexes:\n" + statements.join("\n  --\n"));
    statements.length = 0;
    await scannedRuns(q, ws, c.selection, c.sort, c.offset, LIMIT);
    console.log("  -- scan:\n" + statements.join("\n"));
  } finally {
    q.query = original;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
