// One alert evaluation on a large project: the metric of a rule over its window, as the periodic
// job measures it (server/alerts/metric.ts), for a 5-minute, an hour's and a day's window, from
// the rollups, and with a tag filter the rollups cannot answer (the scan of the window's runs).
// Usage: npx tsx bench/alerts.ts [runs]   (default 1,000,000 in one project over 30 days;
// BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { randomUUID } from "node:crypto";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { sql } from "../server/db/sql";
import { measureMetric, type MetricQuery } from "../server/alerts/metric";
import { scratchDatabase } from "../e2e/harness/server";
import { RARE_TAG, seedRuns } from "./query-seed";

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const REPS = 15;
const pgUrl = process.env.BENCH_DATABASE_URL;

async function main() {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const db = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  try {
    await migrate(db);
    const ws = randomUUID();
    const project = randomUUID();
    await db.sql.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${project}, ${ws}, 'alerts-bench')`);
    console.log(`Seeding ${TOTAL.toLocaleString()} runs into one project (${pgUrl ? "PostgreSQL" : "embedded PGlite"})…`);
    await seedRuns(
      db,
      ws,
      Array.from({ length: 10 }, () => project),
      TOTAL,
      (s) => console.log(s),
    );
    const cases: [string, Pick<MetricQuery, "metric" | "filter">, number][] = [
      ["error rate, 5 min", { metric: "error_rate", filter: null }, 5],
      ["error rate, 60 min", { metric: "error_rate", filter: null }, 60],
      ["latency p95, 60 min", { metric: "latency_p95", filter: null }, 60],
      ["total cost, 24 h", { metric: "total_cost", filter: null }, 1440],
      ["feedback mean, 60 min", { metric: "feedback_mean", filter: null }, 60],
      ["error rate by name, 60 min", { metric: "error_rate", filter: 'eq(name, "agent")' }, 60],
      ["error rate by tag (scan), 60 min", { metric: "error_rate", filter: `has(tags, "${RARE_TAG}")` }, 60],
    ];
    console.log(`\nOne evaluation of an alert rule on a ${TOTAL.toLocaleString()}-run project, median of ${REPS} (ms):`);
    for (const [label, c, minutes] of cases) {
      const ms: number[] = [];
      let source = "";
      for (let i = 0; i < REPS + 2; i++) {
        const end = Date.now() - i * 37_000;
        const started = performance.now();
        const measured = await measureMetric(db.sql, {
          workspaceId: ws,
          projectId: project,
          rootRunsOnly: true,
          feedbackKey: "correctness",
          feedbackValue: null,
          ...c,
          startMs: end - minutes * 60_000,
          endMs: end,
        });
        if (i >= 2) ms.push(performance.now() - started);
        source = measured.source;
      }
      ms.sort((a, b) => a - b);
      console.log(
        `  ${label.padEnd(34)} ${ms[Math.floor(ms.length / 2)].toFixed(1).padStart(8)}  (p90 ${ms[Math.floor(ms.length * 0.9)].toFixed(1)}, ${source})`,
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
