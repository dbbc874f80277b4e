// In-process ingest CPU without HTTP: the multipart, batch or OTLP requests of bench/requests.ts parsed
// and stored through the same functions the routes call, on PostgreSQL or PGlite. For profiling
// (node --cpu-prof) the server side of ingest apart from Next and the socket.
// Usage: npx tsx bench/inproc-ingest.ts [multipart|batch|otlp-proto|otlp-json] [requests]
// (BENCH_DATABASE_URL for PostgreSQL)
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { createWorkspace } from "../server/auth/workspaces";
import { boundaryOf, readMultipart } from "../server/http/multipart";
import { readMultipartIngest } from "../server/ingest/multipart";
import { ingestBatch } from "../server/ingest/service";
import { scratchDatabase } from "../e2e/harness/server";
import { exportTraces } from "../server/otel/export";
import { INGEST_MODES, ingestRequest, type IngestMode } from "./requests";

const mode = (process.argv[2] ?? "multipart") as IngestMode;
const REQUESTS = Number(process.argv[3] ?? 200);
const WARM_UP = 20;
if (!INGEST_MODES.includes(mode) || !(REQUESTS > WARM_UP)) {
  console.error(`Usage: npx tsx bench/inproc-ingest.ts [${INGEST_MODES.join("|")}] [requests, more than ${WARM_UP}]`);
  process.exit(2);
}
const pgUrl = process.env.BENCH_DATABASE_URL;

async function main() {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const dir = await mkdtemp(path.join(tmpdir(), "tl-inproc-"));
  const db = await openDatabase(scratch ? { url: scratch.url } : { dataDir: path.join(dir, "pg") });
  try {
    await migrate(db);
    const ws = (await createWorkspace(db.prisma, "bench")).id;
    const requests = Array.from({ length: REQUESTS }, () => ingestRequest(mode));
    const one = async (i: number) => {
      const r = requests[i];
      if (mode === "multipart") {
        const parts = await readMultipart([r.body as unknown as Uint8Array], boundaryOf(r.contentType), dir);
        await ingestBatch(db.sql, ws, await readMultipartIngest(parts));
      } else if (mode === "batch") {
        const body = JSON.parse(r.body as string) as { post: unknown[]; patch: unknown[] };
        await ingestBatch(db.sql, ws, body);
      } else {
        const bytes = typeof r.body === "string" ? Buffer.from(r.body) : Buffer.from(r.body as Uint8Array);
        const answer = await exportTraces(db.sql, ws, { bytes, contentType: r.contentType });
        if (answer.status !== 200) throw new Error(`OTLP: ${answer.status} ${await answer.text()}`);
      }
    };
    for (let i = 0; i < WARM_UP; i++) await one(i);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let next = WARM_UP;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < REQUESTS) await one(next++);
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    const n = REQUESTS - WARM_UP;
    console.log(
      `${mode}: ${n} requests in ${(performance.now() - t0).toFixed(0)} ms; process CPU per 100 runs ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms (user ${(cpu.user / 1000 / n).toFixed(2)})`,
    );
  } finally {
    await db.close();
    await scratch?.drop();
  }
}
await main();
