// The playground's streaming overhead: time to the first streamed byte of an answer through our
// route (POST /api/v1/playground/stream → the egress client → the model server, re-sent as
// server-sent events) against asking the same local model server directly, interleaved in one run.
// The model server answers at once, so the difference is what the route adds. Then the whole call
// (the answer recorded as a trace) through the route.
// Usage: npx tsx bench/playground.ts [calls]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { startTestModelServer } from "../server/models/test-server";
import { startServer } from "../e2e/harness/server";
import { percentile } from "./timing";

const CALLS = Number(process.argv[2] ?? 100);

/** Milliseconds to the first body byte, and to the end of the body. */
async function timed(url: string, headers: Record<string, string>, body: unknown): Promise<{ first: number; all: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const reader = response.body!.getReader();
  let first = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (value && !first) first = performance.now() - started;
    if (done) break;
  }
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  return { first, all: performance.now() - started };
}

async function main() {
  const model = await startTestModelServer();
  const server = await startServer({ env: { ALLOW_PRIVATE_EGRESS: "1" }, databaseUrl: process.env.BENCH_DATABASE_URL });
  try {
    const created = await fetch(`${server.url}/api/v1/model-connections`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ name: "local", base_url: `${model.url}/v1`, default_model: "gpt-4o-mini", api_key: "sk-bench" }),
    });
    const { id } = (await created.json()) as { id: string };
    const messages = [{ role: "user", content: "a short question for the benchmark" }];
    const direct = () =>
      timed(
        `${model.url}/v1/chat/completions`,
        { authorization: "Bearer sk-bench" },
        { model: "gpt-4o-mini", messages, stream: true, stream_options: { include_usage: true } },
      );
    const route = () =>
      timed(
        `${server.url}/api/v1/playground/stream`,
        { "x-api-key": server.apiKey },
        { connection_id: id, request: { model: "gpt-4o-mini", messages } },
      );
    for (let i = 0; i < 10; i++) await Promise.all([direct(), route()]); // warm-up
    const results = { direct: [] as { first: number; all: number }[], route: [] as { first: number; all: number }[] };
    for (let i = 0; i < CALLS; i++) {
      results.direct.push(await direct());
      results.route.push(await route());
    }
    const line = (name: string, xs: number[]) =>
      `${name.padEnd(52)} p50 ${percentile(xs, 0.5).toFixed(1).padStart(6)} ms  p95 ${percentile(xs, 0.95).toFixed(1).padStart(6)} ms`;
    const firstDirect = results.direct.map((r) => r.first);
    const firstRoute = results.route.map((r) => r.first);
    console.log(
      `\nPlayground benchmark — ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}, ${CALLS} calls each, interleaved`,
    );
    console.log(line("first streamed byte, model server directly", firstDirect));
    console.log(line("first streamed byte, through the playground route", firstRoute));
    console.log(
      `${"added by the route (p50 / p95)".padEnd(52)} ${(percentile(firstRoute, 0.5) - percentile(firstDirect, 0.5)).toFixed(1)} ms / ${(percentile(firstRoute, 0.95) - percentile(firstDirect, 0.95)).toFixed(1)} ms (target under 20 ms)`,
    );
    console.log(
      line(
        "whole call through the route (recorded as a trace)",
        results.route.map((r) => r.all),
      ),
    );
  } finally {
    await server.stop();
    await model.close();
  }
}

void main();
