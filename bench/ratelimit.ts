// The rate limiter's cost per request, in memory and on Redis, against baselines measured in the same
// run: a no-op async check (the floor of any await) and a bare Redis PING (the floor of any round trip).
// Usage: npx tsx bench/ratelimit.ts [requests]   (BENCH_REDIS_URL or TEST_REDIS_URL, default redis://127.0.0.1:6379)
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { createRateLimiter } from "../server/ratelimit/limiter";
import type { RateLimitRequest } from "../server/ratelimit/match";

const N = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = 32;
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

/** A mix of what the SDKs and the UI send, from many callers, so counters stay mostly under their limits. */
const SHAPES = [
  { method: "POST", path: "/runs/multipart" },
  { method: "POST", path: "/api/v1/runs/batch" },
  { method: "PATCH", path: "/runs/0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d" },
  { method: "GET", path: "/info" },
  { method: "POST", path: "/runs/query" },
  { method: "GET", path: "/sessions" },
];
function requestAt(i: number): RateLimitRequest {
  const shape = SHAPES[i % SHAPES.length]!;
  const caller = i % 997;
  if (caller % 5 === 0) return { ...shape, ip: `10.0.${caller % 250}.${caller % 200}`, userId: `user-${caller}` };
  if (caller % 7 === 0) return { ...shape, ip: `10.1.${caller % 250}.${caller % 200}` };
  return { ...shape, ip: "10.2.0.1", apiKey: `lsv2_sk_bench_${caller}` };
}

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Sequential calls: latency per call (µs) and the rate one caller gets. */
async function sequential(n: number, call: (i: number) => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < Math.min(1_000, n); i++) await call(i); // warm-up
  const latencies = new Array<number>(n);
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(i);
    latencies[i] = (performance.now() - t) * 1000;
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: n / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

/** CONCURRENCY callers at once: the rate the process sustains (latency includes queueing). */
async function concurrent(n: number, call: (i: number) => Promise<unknown>): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await call(i);
        latencies.push((performance.now() - t) * 1000);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: n / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

function report(name: string, f: Figures): Figures {
  console.log(
    `${name.padEnd(40)} ${Math.round(f.perSecond).toLocaleString("en-US").padStart(10)} /s   p50 ${f.p50.toFixed(1).padStart(7)} µs   p99 ${f.p99.toFixed(1).padStart(8)} µs`,
  );
  return f;
}
const ratio = (label: string, a: number, b: number) => console.log(`${label.padEnd(58)} ${(a / b).toFixed(2)}×`);

async function reachable(url: string): Promise<Redis | null> {
  const client = new Redis(url, { connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch {
    client.disconnect();
    return null;
  }
}

async function main() {
  console.log(`rate limiter bench: ${N} decisions per measurement, ${CONCURRENCY} concurrent callers where noted\n`);
  const noop = async (_: RateLimitRequest) => ({ allowed: true, headers: {} });
  const noopSeq = report("baseline: no-op async check", await sequential(N, (i) => noop(requestAt(i))));

  const memory = createRateLimiter({ region: "us" });
  const memorySeq = report("memory limiter", await sequential(N, (i) => memory.check(requestAt(i))));
  await memory.close();

  const redis = await reachable(REDIS_URL);
  if (!redis) {
    console.log(`\nRedis at ${REDIS_URL} is not reachable: Redis figures skipped.`);
  } else {
    const prefix = `tracelight-bench:rl:${randomUUID()}:`;
    const warnings: string[] = [];
    const limiter = createRateLimiter({ region: "us", redisUrl: REDIS_URL, keyPrefix: prefix, warn: (m) => warnings.push(m) });
    try {
      const redisN = Math.max(1_000, Math.floor(N / 4));
      const pingSeq = report("baseline: Redis PING round trip", await sequential(redisN, () => redis.ping()));
      const redisSeq = report("Redis limiter", await sequential(redisN, (i) => limiter.check(requestAt(i))));
      const pingConc = report(`baseline: Redis PING ×${CONCURRENCY}`, await concurrent(redisN, () => redis.ping()));
      const redisConc = report(`Redis limiter ×${CONCURRENCY}`, await concurrent(redisN, (i) => limiter.check(requestAt(i))));
      if (warnings.length) console.log(`\nWARNING: the Redis limiter fell back to memory during the run: ${warnings.join(" | ")}`);

      console.log("");
      ratio("memory limiter p50 / no-op check p50", memorySeq.p50, noopSeq.p50);
      ratio("Redis limiter p50 / PING p50", redisSeq.p50, pingSeq.p50);
      ratio("Redis limiter p99 / PING p99", redisSeq.p99, pingSeq.p99);
      ratio(`Redis limiter throughput / PING throughput (×${CONCURRENCY})`, redisConc.perSecond, pingConc.perSecond);
      ratio("Redis limiter p50 / memory limiter p50", redisSeq.p50, memorySeq.p50);
    } finally {
      await limiter.close();
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== "0");
      await redis.quit();
    }
    return;
  }
  ratio("memory limiter p50 / no-op check p50", memorySeq.p50, noopSeq.p50);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
