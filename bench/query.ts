// Query speed on a large project: the first page, filters, full-text search, a trace tree, stats
// and a 30-day cost chart, each through the service (server/runs, server/charts) and as the
// equivalent hand-written SQL in the same run (the baseline), with p50/p95 and the ratio.
// Then the analytics of one large project (statistics, a chart, the projects list) read from the
// rollups against the scans they replace, in the same run.
// Usage: npx tsx bench/query.ts [runs] [analytics runs]   (BENCH_DATABASE_URL=postgres://… for
// PostgreSQL; the defaults are 1,000,000 runs and a 10,000,000-run project there, 50,000 runs and a
// 1,000,000-run project on the embedded database; 0 analytics runs skips that part)
import { randomUUID } from "node:crypto";
import { openDatabase, type Database } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { sql, type SqlFragment } from "../server/db/sql";
import { chartSeries } from "../server/charts/series";
import { chartQueryFromWire, chartRequest } from "../server/charts/schema";
import { queryTraces, traceQuery } from "../server/runs/traces-v2";
import { queryRuns } from "../server/runs/query";
import { runQueryBody, runQueryFromWire, runSelection, selectionFromWire } from "../server/runs/schema";
import { runStats, runStatsScan } from "../server/runs/stats";
import { scanChartRows } from "../server/charts/series";
import { listSessions } from "../server/sessions/service";
import { searchText } from "../server/runs/filter/index";
import { scratchDatabase } from "../e2e/harness/server";
import { RARE_TAG, SEARCH_TERM, seedRuns } from "./query-seed";

const pgUrl = process.env.BENCH_DATABASE_URL;
const TOTAL = Number(process.argv[2] ?? (pgUrl ? 1_000_000 : 50_000));
const ANALYTICS_TOTAL = Number(process.argv[3] ?? (pgUrl ? 10_000_000 : 1_000_000));
const REPS = Number(process.env.BENCH_REPS ?? 20);
const WARMUP = 2;

interface Case {
  name: string;
  target: number;
  service: (i: number) => Promise<unknown>;
  baseline: (i: number) => Promise<unknown>;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function time(fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const started = performance.now();
    await fn(i);
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
    const projects = Array.from({ length: 10 }, () => randomUUID());
    for (const [i, id] of projects.entries())
      await db.sql.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${id}, ${ws}, ${`bench-${i}`})`);
    console.log(
      `Seeding ${TOTAL.toLocaleString()} runs in ${(TOTAL / 10).toLocaleString()} traces across 10 projects (${pgUrl ? "PostgreSQL" : "embedded PGlite"})…`,
    );
    const seedStarted = performance.now();
    await seedRuns(db, ws, projects, TOTAL, (s) => console.log(s));
    console.log(`Seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)}s`);

    const q = db.sql;
    const project = (i: number) => projects[i % 10];
    const traceIds = (
      await q.query<{ trace_id: string }>(
        sql`SELECT trace_id FROM runs WHERE workspace_id = ${ws} AND is_root ORDER BY id LIMIT ${REPS + WARMUP}`,
      )
    ).map((r) => r.trace_id);
    const user = (i: number) => `user_${(i * 37) % 1000}`;
    const page = (where: SqlFragment) => q.query(sql`SELECT * FROM runs WHERE ${where} ORDER BY start_time DESC, id LIMIT 100`);
    const inProject = (i: number) => sql`workspace_id = ${ws} AND project_id = ${project(i)}`;
    const end = Date.now();
    const start = end - 30 * 86_400_000;

    const cases: Case[] = [
      {
        name: "first page of a project",
        target: 50,
        service: (i) => queryRuns(q, ws, runQueryFromWire(runQueryBody.parse({ session: [project(i)], limit: 100 }))),
        baseline: (i) => page(inProject(i)),
      },
      {
        name: "first page of traces (roots)",
        target: 50,
        service: (i) => queryRuns(q, ws, runQueryFromWire(runQueryBody.parse({ session: [project(i)], is_root: true, limit: 100 }))),
        baseline: (i) => page(sql`${inProject(i)} AND is_root`),
      },
      {
        name: "v2 traces.query first page",
        target: 50,
        service: (i) =>
          queryTraces(
            q,
            ws,
            traceQuery.parse({
              project_id: project(i),
              min_start_time: "2000-01-01T00:00:00Z",
              page_size: 100,
              selects: ["NAME", "START_TIME"],
            }),
          ),
        baseline: (i) => page(sql`${inProject(i)} AND is_root`),
      },
      {
        name: "metadata filter (user_id = …)",
        target: 100,
        service: (i) =>
          queryRuns(
            q,
            ws,
            runQueryFromWire(
              runQueryBody.parse({ session: [project(i)], filter: `and(eq(metadata_key, "user_id"), eq(metadata_value, "${user(i)}"))` }),
            ),
          ),
        baseline: (i) => page(sql`${inProject(i)} AND extra @> ${JSON.stringify({ metadata: { user_id: user(i) } })}::jsonb`),
      },
      {
        name: `tag filter (has(tags, "${RARE_TAG}"))`,
        target: 100,
        service: (i) =>
          queryRuns(q, ws, runQueryFromWire(runQueryBody.parse({ session: [project(i)], filter: `has(tags, "${RARE_TAG}")` }))),
        baseline: (i) => page(sql`${inProject(i)} AND tags @> ${[RARE_TAG]}::text[]`),
      },
      {
        name: `full-text search ("${SEARCH_TERM}")`,
        target: 100,
        service: (i) =>
          queryRuns(q, ws, runQueryFromWire(runQueryBody.parse({ session: [project(i)], filter: `search("${SEARCH_TERM}")` }))),
        baseline: (i) => page(sql`${inProject(i)} AND ${searchText("runs")} ILIKE ${`%${SEARCH_TERM}%`}`),
      },
      {
        name: "trace tree",
        target: 50,
        service: (i) => queryRuns(q, ws, runQueryFromWire(runQueryBody.parse({ trace: traceIds[i % traceIds.length], order: "asc" }))),
        baseline: (i) =>
          q.query(sql`SELECT * FROM runs WHERE workspace_id = ${ws} AND trace_id = ${traceIds[i % traceIds.length]} ORDER BY dotted_order`),
      },
      {
        name: "stats over a whole project",
        target: 500,
        service: (i) => runStats(q, ws, selectionFromWire(runSelection.parse({ session: [project(i)] }))),
        baseline: (i) =>
          q.query(sql`
          SELECT count(*), avg((error IS NOT NULL)::int), percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms),
            percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms), sum(total_tokens), sum(total_cost), max(start_time)
          FROM runs WHERE ${inProject(i)}`),
      },
      {
        name: "30-day cost chart by model",
        target: 500,
        service: (i) =>
          chartSeries(
            q,
            ws,
            chartQueryFromWire(
              chartRequest.parse({
                session: [project(i)],
                metrics: ["total_cost"],
                group_by: { attribute: "model" },
                start_time: start,
                end_time: end,
                bucket: "1d",
              }),
            ),
          ),
        baseline: (i) =>
          q.query(sql`
          SELECT date_trunc('day', start_time), model, sum(total_cost) FROM runs
          WHERE ${inProject(i)} AND start_time >= ${new Date(start).toISOString()}::timestamptz GROUP BY 1, 2`),
      },
    ];

    const pk = await time(() => q.query(sql`SELECT * FROM runs WHERE id = ${traceIds[0]}`));
    console.log(
      `\nQuery benchmark — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, ${TOTAL.toLocaleString()} runs (${(TOTAL / 10).toLocaleString()} per project), ${REPS} repetitions after ${WARMUP} warm-up`,
    );
    console.log(`reference: primary-key lookup p50 ${percentile(pk, 0.5).toFixed(2)} ms\n`);
    await report(cases, "SQL");
    if (ANALYTICS_TOTAL > 0) await analytics(db, ws);
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

/** Measures each case against its baseline, interleaved so that a busy machine slows both alike. */
async function report(cases: Case[], baselineName: string): Promise<void> {
  console.log(
    `${"operation".padEnd(34)} ${"p50 ms".padStart(9)} ${"p95 ms".padStart(9)} ${"target".padStart(7)}   ${`${baselineName} p50`.padStart(9)} ${`${baselineName} p95`.padStart(9)}  ratio`,
  );
  for (const c of cases) {
    const service = await time(c.service);
    const baseline = await time(c.baseline);
    const p95 = percentile(service, 0.95);
    console.log(
      `${c.name.padEnd(34)} ${percentile(service, 0.5).toFixed(1).padStart(9)} ${p95.toFixed(1).padStart(9)} ${`<${c.target}`.padStart(7)}${p95 <= c.target ? " ok" : " !!"} ${percentile(baseline, 0.5).toFixed(1).padStart(9)} ${percentile(baseline, 0.95).toFixed(1).padStart(9)}  ${(percentile(service, 0.5) / percentile(baseline, 0.5)).toFixed(2)}×`,
    );
  }
}

/**
 * One project of ANALYTICS_TOTAL runs beside the others: whole-project and root-run statistics, a
 * 30-day cost chart by model and the projects list with statistics, from the rollups (the service)
 * against the scans of the runs they replace.
 */
async function analytics(db: Database, ws: string): Promise<void> {
  const q = db.sql;
  const big = randomUUID();
  await q.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${big}, ${ws}, 'analytics')`);
  console.log(`\nSeeding ${ANALYTICS_TOTAL.toLocaleString()} runs in one project…`);
  const seedStarted = performance.now();
  await seedRuns(
    db,
    ws,
    Array.from({ length: 10 }, () => big),
    ANALYTICS_TOTAL,
    (s) => console.log(s),
    "analytics-",
  );
  console.log(`Seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)}s (rollups kept by the triggers, then compacted)`);
  const [size] = await q.query<{ buckets: number; sketches: number; dim_sketches: number; dim_feedback: number }>(sql`
    SELECT (SELECT count(*)::int FROM run_buckets WHERE project_id = ${big}) AS buckets,
           (SELECT count(*)::int FROM run_sketches WHERE project_id = ${big}) AS sketches,
           (SELECT count(*)::int FROM run_dim_sketches WHERE project_id = ${big}) AS dim_sketches,
           (SELECT count(*)::int FROM feedback_dim_buckets WHERE project_id = ${big}) AS dim_feedback`);
  console.log(
    `The project's rollups: ${size.buckets.toLocaleString()} bucket rows, ${size.sketches.toLocaleString()} sketch rows, ` +
      `${size.dim_sketches.toLocaleString()} single-dimension sketch rows, ${size.dim_feedback.toLocaleString()} single-dimension feedback rows`,
  );

  const end = Date.now();
  const chart = chartQueryFromWire(
    chartRequest.parse({
      session: [big],
      metrics: ["total_cost"],
      group_by: { attribute: "model" },
      start_time: end - 30 * 86_400_000,
      end_time: end,
      bucket: "1d",
    }),
  );
  const window = { startMs: end - 30 * 86_400_000, endMs: end, seconds: 86_400 };
  const latencyByModel = chartQueryFromWire(
    chartRequest.parse({
      session: [big],
      metrics: ["latency_p50", "latency_p99", "first_token_p50"],
      group_by: { attribute: "model" },
      start_time: end - 30 * 86_400_000,
      end_time: end,
      bucket: "1d",
    }),
  );
  const filtered = (name: string, filter: string, extra: Record<string, unknown> = {}): Case => {
    const selection = () => selectionFromWire(runSelection.parse({ session: [big], filter, ...extra }));
    return { name, target: 100, service: () => runStats(q, ws, selection()), baseline: () => runStatsScan(q, ws, selection()) };
  };
  const projects = (await q.query<{ id: string }>(sql`SELECT id FROM projects WHERE workspace_id = ${ws}`)).map((p) => p.id);
  const cases: Case[] = [
    {
      name: "stats, whole project",
      target: 300,
      service: () => runStats(q, ws, selectionFromWire(runSelection.parse({ session: [big] }))),
      baseline: () => runStatsScan(q, ws, selectionFromWire(runSelection.parse({ session: [big] }))),
    },
    {
      name: "stats, root runs",
      target: 300,
      service: () => runStats(q, ws, selectionFromWire(runSelection.parse({ session: [big], is_root: true }))),
      baseline: () => runStatsScan(q, ws, selectionFromWire(runSelection.parse({ session: [big], is_root: true }))),
    },
    {
      name: "30-day cost chart by model",
      target: 300,
      service: () => chartSeries(q, ws, chart),
      baseline: () => scanChartRows(q, ws, { projectIds: [big] }, chart, window),
    },
    filtered("stats, one name", 'eq(name, "agent")'),
    filtered("stats, one model", 'eq(model, "gpt-4o")'),
    filtered("stats, one provider", 'eq(provider, "claude")'),
    filtered("stats, one model, last 7 days", 'eq(model, "gpt-4o")', { start_time: new Date(end - 7 * 86_400_000).toISOString() }),
    filtered(`stats, one tag (a scan)`, `has(tags, "${RARE_TAG}")`),
    {
      name: "30-day latency percentiles by model",
      target: 100,
      service: () => chartSeries(q, ws, latencyByModel),
      baseline: () => scanChartRows(q, ws, { projectIds: [big] }, latencyByModel, window),
    },
    {
      name: `projects list with stats (${projects.length})`,
      target: 300,
      service: () => listSessions(q, ws, { includeStats: true }),
      baseline: () =>
        Promise.all(
          [true, undefined].map((is_root) =>
            Promise.all(projects.map((p) => runStatsScan(q, ws, selectionFromWire(runSelection.parse({ session: [p], is_root }))))),
          ),
        ),
    },
  ];
  console.log(
    `\nAnalytics — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, one project of ${ANALYTICS_TOTAL.toLocaleString()} runs over 30 days; rollups against the scan`,
  );
  await report(cases, "scan");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
