// Ingest throughput through two web instances against one, on the same machine and the same
// PostgreSQL, side by side: multipart requests of 100 runs (~2 KB each), 4 in flight, sent to one
// instance, then spread over both (rounds interleaved). Both instances run with JOB_WORKERS=0, as
// web instances do beside a worker. On a 2-core machine the second instance shows its overhead,
// not a speed-up: the point is that nothing but the database and Redis is shared.
// Usage: BENCH_DATABASE_URL=postgres://… npx tsx bench/scale-out.ts [rounds]
import { randomBytes } from "node:crypto";
import { scratchDatabase, startServer, type RunningServer } from "../e2e/harness/server";
import { makeTrace, multipartOf } from "./payloads";

const pgUrl = process.env.BENCH_DATABASE_URL;
const ROUNDS = Number(process.argv[2] ?? 5);
const REQUESTS = 40;
const IN_FLIGHT = 4;

async function throughput(targets: RunningServer[]): Promise<number> {
  const bodies = Array.from({ length: REQUESTS }, () => multipartOf(Array.from({ length: 10 }, () => makeTrace("scale-out")).flat()));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < REQUESTS; i = next++) {
        const target = targets[i % targets.length]!;
        const r = await fetch(`${target.url}/runs/multipart`, {
          method: "POST",
          headers: { "x-api-key": target.apiKey, "content-type": bodies[i]!.contentType },
          body: bodies[i]!.body as unknown as BodyInit,
        });
        await r.arrayBuffer();
        if (r.status !== 202) throw new Error(`ingest answered ${r.status}`);
      }
    }),
  );
  return (REQUESTS * 100) / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  if (!pgUrl) throw new Error("bench/scale-out.ts needs BENCH_DATABASE_URL (PostgreSQL): instances share one database.");
  const scratch = await scratchDatabase(pgUrl);
  const env = {
    DATABASE_URL: scratch.url,
    JOB_WORKERS: "0",
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    INTERNAL_SECRET: randomBytes(32).toString("base64url"),
  };
  const first = await startServer({ env });
  const second = await startServer({ env, existing: { apiKey: first.apiKey, workspaceId: first.workspaceId } });
  const one: number[] = [];
  const two: number[] = [];
  try {
    await throughput([first, second]); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      one.push(await throughput([first]));
      two.push(await throughput([first, second]));
      console.log(`round ${round + 1}: one instance ${one.at(-1)!.toFixed(0)} runs/s, two instances ${two.at(-1)!.toFixed(0)} runs/s`);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `\nmultipart ingest, ${IN_FLIGHT} requests in flight: one instance median ${median(one).toFixed(0)} runs/s, two instances ${median(two).toFixed(0)} runs/s (${(median(two) / median(one)).toFixed(2)}×)`,
    );
  } finally {
    await second.stop();
    await first.stop();
    await scratch.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
