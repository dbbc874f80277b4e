// What the analytics rollups cost ingest, measured where they are paid: the ingest use case's
// database work for requests of 100 runs (10 traces, as `bench/ingest.ts` sends them), in process,
// with the rollup triggers on and off by turns on the same database, rounds interleaved.
// Usage: npx tsx bench/rollups.ts [rounds]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { randomUUID } from "node:crypto";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { sql } from "../server/db/sql";
import { ingestRuns } from "../server/ingest/service";
import type { WireRun } from "../server/ingest/schema";
import { scratchDatabase } from "../e2e/harness/server";
import { makeTrace } from "./payloads";
import { compactRollups } from "../server/runs/rollups/compact";

const ROUNDS = Number(process.argv[2] ?? 7);
const REQUESTS = 30;
const pgUrl = process.env.BENCH_DATABASE_URL;

async function main() {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const db = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  try {
    await migrate(db);
    const ws = randomUUID();
    const triggers = await db.sql.query<{ tbl: string; name: string }>(sql`
      SELECT tgrelid::regclass::text AS tbl, tgname AS name FROM pg_trigger WHERE tgname LIKE '%rollup%'`);
    const rollups = async (on: boolean) => {
      for (const t of triggers) await db.execScript(`ALTER TABLE ${t.tbl} ${on ? "ENABLE" : "DISABLE"} TRIGGER "${t.name}"`);
    };
    const request = () => Array.from({ length: 10 }, () => makeTrace("bench", 4, 5)).flat() as WireRun[];
    const ms: Record<"on" | "off", number[]> = { on: [], off: [] };
    for (let round = 0; round <= ROUNDS; round++) {
      for (const mode of ["on", "off"] as const) {
        await rollups(mode === "on");
        const bodies = Array.from({ length: REQUESTS }, request);
        const started = performance.now();
        for (const post of bodies) await ingestRuns(db.sql, ws, { post });
        // The first round warms up.
        if (round > 0) ms[mode].push((performance.now() - started) / REQUESTS);
        // As a live server's worker does every few seconds (not timed).
        if (mode === "on") await compactRollups(db.sql);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [on, off] = [median(ms.on), median(ms.off)];
    console.log(
      `\nRollups' cost to ingest — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, ${ROUNDS} interleaved rounds of ${REQUESTS} requests × 100 runs, one at a time`,
    );
    console.log(
      `rollups on:  median ${on.toFixed(1)} ms per request (${(100_000 / on).toFixed(0)} runs/s; rounds ${ms.on.map((x) => x.toFixed(1)).join(", ")})`,
    );
    console.log(
      `rollups off: median ${off.toFixed(1)} ms per request (${(100_000 / off).toFixed(0)} runs/s; rounds ${ms.off.map((x) => x.toFixed(1)).join(", ")})`,
    );
    console.log(
      `the rollups add ${(on - off).toFixed(1)} ms per 100 runs: ${((1 - off / on) * 100).toFixed(1)} % of the database work of ingest`,
    );
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
