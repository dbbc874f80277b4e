// Read-only SQL (`POST /v2/sql/query`) on one project of 1,000,000 runs over 30 days: each query
// through the service (parsed, scoped by row-level security, read-only, as the reader role) and,
// as the baseline in the same run, the same query as the service's own user with the workspace and
// project written into it; p50/p95 and the ratio.
// Usage: npx tsx bench/sql.ts [runs]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { randomUUID } from "node:crypto";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { sql } from "../server/db/sql";
import { runSqlQuery } from "../server/sql/query";
import { scratchDatabase } from "../e2e/harness/server";
import { seedRuns } from "./query-seed";
import { percentile, timed } from "./timing";

const pgUrl = process.env.BENCH_DATABASE_URL;
const TOTAL = Number(process.argv[2] ?? 1_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 10);

const QUERIES: { name: string; target: number; body: string }[] = [
  {
    name: "count(*) by model, 30 days",
    target: 2000,
    body: "SELECT model, count(*) AS runs FROM runs WHERE start_time >= now() - interval '30 days' AND {scope} GROUP BY model ORDER BY runs DESC",
  },
  {
    name: "tokens per day, 30 days",
    target: 2000,
    body: "SELECT date_trunc('day', start_time) AS day, sum(total_tokens) AS tokens FROM runs WHERE start_time >= now() - interval '30 days' AND {scope} GROUP BY 1 ORDER BY 1",
  },
  {
    name: "latest 100 errors, 1 day",
    target: 200,
    body: "SELECT id, name, error, start_time FROM runs WHERE start_time >= now() - interval '1 day' AND status = 'error' AND {scope} ORDER BY start_time DESC LIMIT 100",
  },
];

async function main(): Promise<void> {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const db = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  try {
    await migrate(db);
    const ws = randomUUID();
    const project = randomUUID();
    await db.sql.query(sql`INSERT INTO workspaces (id, name) VALUES (${ws}, 'bench')`);
    await db.sql.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${project}, ${ws}, 'sql-bench')`);
    console.log(`Seeding ${TOTAL.toLocaleString()} runs in one project over 30 days (${pgUrl ? "PostgreSQL" : "embedded PGlite"})…`);
    await seedRuns(
      db,
      ws,
      Array.from({ length: 10 }, () => project),
      TOTAL,
      (s) => console.log(s),
    );
    await db.sql.text("ANALYZE runs");

    console.log(`\nRead-only SQL — ${REPS} repetitions after warm-up; baseline: the same query as the service's user`);
    console.log(
      `${"query".padEnd(30)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"target".padStart(8)}   ${"base p50".padStart(8)}  ratio`,
    );
    for (const query of QUERIES) {
      const sandboxed = query.body.replace(" AND {scope}", "");
      const direct = query.body.replace("{scope}", `workspace_id = '${ws}' AND project_id = '${project}'`);
      const service = await timed(REPS, () => runSqlQuery(db.sql, ws, { projectIds: [project], query: sandboxed }));
      const baseline = await timed(REPS, () => db.sql.text(direct));
      const p95 = percentile(service, 0.95);
      console.log(
        `${query.name.padEnd(30)} ${percentile(service, 0.5).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${`<${query.target}`.padStart(8)}${p95 <= query.target ? " ok" : " !!"} ${percentile(baseline, 0.5).toFixed(1).padStart(8)}  ${(percentile(service, 0.5) / percentile(baseline, 0.5)).toFixed(2)}×`,
      );
    }
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
