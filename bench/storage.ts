// The storage executor against Prisma Client on the same work, measured in one run: the ingest
// insert of 100 runs (one set-based statement) through our executor and through Prisma's
// `$executeRawUnsafe` in a `$transaction`, and a one-row read by primary key through the executor,
// Prisma's `$queryRawUnsafe` and a Prisma model query. It decides where the executor stays.
// Usage: npx tsx bench/storage.ts [rounds]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../server/auth/workspaces";
import { openDatabase, type Database } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { compile, sql } from "../server/db/sql";
import { insertNewStatement, type RunRow } from "../server/runs/write";
import { createSession } from "../server/sessions/service";
import { scratchDatabase } from "../e2e/harness/server";
import { makeTrace } from "./payloads";
import { percentile, timed } from "./timing";

const ROUNDS = Number(process.argv[2] ?? 200);
const pgUrl = process.env.BENCH_DATABASE_URL;

function rowsFor(project: string): RunRow[] {
  const runs: Record<string, unknown>[] = [];
  while (runs.length < 100) runs.push(...makeTrace("bench"));
  return runs.slice(0, 100).map((r) => ({
    ...(r as object),
    id: randomUUID(),
    project_id: project,
    trace_id: r.trace_id,
    parent_run_id: null,
    is_root: true,
    tags: [],
    placement_pending: false,
    tokens_estimated: false,
  })) as unknown as RunRow[];
}

async function main() {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const db: Database = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  try {
    await migrate(db);
    const ws = (await createWorkspace(db.prisma, "bench")).id;
    const project = (await createSession(db.sql, ws, { name: "storage" })).id;
    const results: [string, number[]][] = [];

    results.push([
      "insert 100 runs: executor (db.tx + db.query)",
      await timed(ROUNDS, () => db.sql.tx((tx) => tx.query(insertNewStatement(ws, rowsFor(project))))),
    ]);
    results.push([
      "insert 100 runs: Prisma $executeRawUnsafe in $transaction",
      await timed(ROUNDS, () => {
        const { text, values } = compile(insertNewStatement(ws, rowsFor(project)));
        return db.prisma.$transaction((tx) => tx.$executeRawUnsafe(text, ...values));
      }),
    ]);
    const ids = (await db.sql.query<{ id: string }>(sql`SELECT id FROM runs WHERE workspace_id = ${ws} LIMIT 500`)).map((r) => r.id);
    const pick = (i: number) => ids[Math.abs(i) % ids.length]!;
    results.push([
      "read one run by id: executor",
      await timed(ROUNDS * 5, (i) => db.sql.query(sql`SELECT * FROM runs WHERE id = ${pick(i)}`)),
    ]);
    results.push([
      "read one run by id: Prisma $queryRawUnsafe",
      await timed(ROUNDS * 5, (i) => db.prisma.$queryRawUnsafe("SELECT * FROM runs WHERE id = $1::uuid", pick(i))),
    ]);
    results.push([
      "read one run by id: Prisma model (findUnique)",
      await timed(ROUNDS * 5, (i) => db.prisma.run.findUnique({ where: { id: pick(i) } })),
    ]);

    const base = percentile(results[0]![1], 0.5);
    const readBase = percentile(results[2]![1], 0.5);
    console.log(`\nStorage benchmark — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, ${ROUNDS} inserts of 100 runs, ${ROUNDS * 5} reads`);
    for (const [name, times] of results) {
      const p50 = percentile(times, 0.5);
      const ratio = p50 / (name.startsWith("insert") ? base : readBase);
      console.log(
        `${name.padEnd(60)} p50 ${p50.toFixed(2).padStart(7)} ms  p95 ${percentile(times, 0.95).toFixed(2).padStart(7)} ms  ${ratio.toFixed(2)}× executor`,
      );
    }
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

void main();
