// What checking an answer against its response schema costs the route factory, against what it
// pays anyway to serialize the same answer (JSON.stringify), measured in one run on pages of 100
// runs read through the services from an embedded database: `/runs/query` (whole runs), the runs
// table's tRPC page (its `.output()` check), and the v2 `runs.query` and `traces.query` with every
// field selected.
// Usage: npx tsx bench/responses.ts [rounds]
import type { z } from "zod";
import { createWorkspace } from "../server/auth/workspaces";
import { cursorPage } from "../server/core/offset-cursor";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { ingestRuns } from "../server/ingest/service";
import { queryRuns, runPage } from "../server/runs/query";
import { queryRunsV2, runQueryV2 } from "../server/runs/query-v2";
import { runQueryBody, runQueryFromWire } from "../server/runs/schema";
import { queryTraces, traceQuery, wireTraceV2 } from "../server/runs/traces-v2";
import { runSelects, wireRunV2 } from "../server/runs/v2";
import { runSummaryPage, TABLE_FIELDS } from "../server/runs/table";
import { createSession } from "../server/sessions/service";
import { makeTrace } from "./payloads";
import { percentile } from "./timing";

const ROUNDS = Number(process.argv[2] ?? 500);

/** Microseconds of each of ROUNDS synchronous calls, after 50 warm-up calls. */
function timedSync(op: () => unknown): number[] {
  for (let i = 0; i < 50; i++) op();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    op();
    times.push((performance.now() - t0) * 1000);
  }
  return times;
}

async function main() {
  const db = await openDatabase({ dataDir: "memory" });
  try {
    await migrate(db);
    const ws = (await createWorkspace(db.prisma, "bench")).id;
    const project = (await createSession(db.sql, ws, { name: "responses" })).id;
    const runs: Record<string, unknown>[] = [];
    while (runs.length < 1200) runs.push(...makeTrace("responses"));
    for (let i = 0; i < runs.length; i += 100) await ingestRuns(db.sql, ws, { post: runs.slice(i, i + 100) });

    const day = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const pages: { name: string; answer: unknown; schema: z.ZodType }[] = [
      {
        name: "/runs/query, 100 whole runs",
        answer: await queryRuns(db.sql, ws, runQueryFromWire(runQueryBody.parse({ session: [project], limit: 100, start_time: day }))),
        schema: runPage,
      },
      {
        name: "tRPC runs.list, 100 table runs (its .output())",
        answer: await queryRuns(db.sql, ws, { projectIds: [project], limit: 100, startTime: day, fields: [...TABLE_FIELDS] }).then(
          (page) => ({ runs: page.runs, next: page.cursors.next }),
        ),
        schema: runSummaryPage,
      },
      {
        name: "v2 runs.query, 100 runs, every field selected",
        answer: await queryRunsV2(
          db.sql,
          ws,
          runQueryV2.parse({ project_ids: [project], page_size: 100, min_start_time: day, selects: runSelects.element.options }),
        ),
        schema: cursorPage(wireRunV2),
      },
      {
        name: "v2 traces.query, 100 traces, every field selected",
        answer: await queryTraces(
          db.sql,
          ws,
          traceQuery.parse({ project_id: project, page_size: 100, min_start_time: day, selects: runSelects.element.options }),
        ),
        schema: cursorPage(wireTraceV2),
      },
    ];

    console.log(`\nResponse checks — ${ROUNDS} rounds each, embedded PGlite data, in process`);
    for (const { name, answer, schema } of pages) {
      const bytes = JSON.stringify(answer).length;
      const check = percentile(
        timedSync(() => schema.safeParse(answer)),
        0.5,
      );
      const serialize = percentile(
        timedSync(() => JSON.stringify(answer)),
        0.5,
      );
      console.log(
        `${name.padEnd(48)} ${(bytes / 1024).toFixed(0).padStart(5)} KiB  check p50 ${check.toFixed(0).padStart(6)} µs  ` +
          `JSON.stringify p50 ${serialize.toFixed(0).padStart(6)} µs  ${(check / serialize).toFixed(2)}× serializing`,
      );
    }
  } finally {
    await db.close();
  }
}

void main();
