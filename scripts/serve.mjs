// The production server: Next.js behind a thin Node HTTP front that does what must happen before a
// request reaches Next (which would otherwise buffer the body or trust any header):
// - a body declared larger than MAX_BODY_BYTES is refused with 413 at once, without reading it;
// - a request whose body stops arriving is cut with 408 after REQUEST_TIMEOUT_MS;
// - a path that is not valid percent-encoding is a 400, not a 500 from the router;
// - the caller's address is resolved once: X-Forwarded-For is believed only from TRUSTED_PROXIES,
//   and what reaches the app in X-Forwarded-For is that one address.
// - ingest's POSTs are answered by their route's handler without Next's request handling, once Next
//   has loaded the route (server/http/direct.ts);
// - requests are counted for /metrics (by method, the app route's pattern and status, with their durations);
// - on SIGTERM or SIGINT it stops accepting, lets in-flight requests finish, then stops the app's
//   jobs and database (bounded by SHUTDOWN_TIMEOUT_MS) and exits.
// Usage: node scripts/serve.mjs (PORT, HOSTNAME from the environment).
import { createServer } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { BlockList, isIP } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import v8 from "node:v8";
import next from "next";
import prometheus from "prom-client";
import nextConfig, { rewrittenPath } from "../next.config.mjs";

// The V8 heap grows up to 4× what survived its last full collection before collecting again: under
// ingest that is ~85 MB live and ~350 MB of heap, nearly all of it garbage (request bodies, parsed
// runs promoted while their request waits on the database). Growing by HEAP_GROWING_PERCENT
// (default 100, i.e. 2×; 0 for V8's own choice) bounds the peak; docs/benchmarks.md, "Memory".
const heapGrowingPercent = Number(process.env.HEAP_GROWING_PERCENT ?? 100);
if (heapGrowingPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);

const MiB = 1024 * 1024;
const port = Number(process.env.PORT || 1984);
const hostname = process.env.HOSTNAME || undefined;
const maxBodyBytes = Number(process.env.MAX_BODY_BYTES) || 25 * MiB;
const requestTimeoutMs = Number(process.env.REQUEST_TIMEOUT_MS) || 60_000;
const trusted = trustedProxies(process.env.TRUSTED_PROXIES ?? "");
const shutdownTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000);

const requests = new prometheus.Counter({
  name: "tracelight_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status",
  labelNames: ["method", "route", "status"],
});
const durations = new prometheus.Histogram({
  name: "tracelight_http_request_duration_seconds",
  help: "Time to answer HTTP requests, by method and route pattern",
  labelNames: ["method", "route"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/**
 * The label of a request's route: the app route that answers it (`/api/v1/runs/[runId]`, whichever
 * alias the caller used), read from the build's routes manifest, so /metrics keeps one series per
 * route however many paths callers invent; a path no route answers is "unmatched".
 */
function routeLabels() {
  const manifest = JSON.parse(readFileSync(path.join(nextConfig.distDir ?? ".next", "routes-manifest.json"), "utf8"));
  const pages = new Set([...manifest.staticRoutes.map((r) => r.page), ...publicFiles()]);
  const patterns = manifest.dynamicRoutes.map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  return (url) => {
    const pathname = (url ?? "/").split(/[?#]/)[0];
    if (pathname.startsWith("/_next/")) return "/_next";
    const target = rewrittenPath(pathname);
    const page = target.length > 1 ? target.replace(/\/+$/, "") : target;
    if (pages.has(page)) return page;
    return patterns.find((p) => p.regex.test(target))?.page ?? "unmatched";
  };
}

function publicFiles() {
  try {
    return readdirSync("public", { recursive: true }).map((file) => `/${String(file).split(path.sep).join("/")}`);
  } catch {
    return [];
  }
}

/** TRUSTED_PROXIES: comma-separated addresses or CIDR ranges of the proxies in front of this server. */
function trustedProxies(list) {
  const blocks = new BlockList();
  for (const entry of list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (!isIP(address)) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR range`);
    if (bits === undefined) blocks.addAddress(address, family);
    else blocks.addSubnet(address, Number(bits), family);
  }
  return blocks;
}

const plain = (address) => (address ?? "").replace(/^::ffff:(?=\d+\.)/, "");
const isTrusted = (address) => isIP(address) !== 0 && trusted.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");

/** The caller: the socket's peer, or, while that hop is a trusted proxy, the address it forwarded for. */
function callerAddress(socketAddress, forwardedFor) {
  let address = plain(socketAddress);
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((s) => plain(s.trim()))
    .filter(Boolean);
  while (isTrusted(address) && hops.length) address = hops.pop();
  return address || "unknown";
}

/**
 * Ingest answers are a few bytes (`{}`, or a 207 naming refused runs): a gzip stream per answer
 * costs more CPU and memory than it saves, so Next is not asked to compress them.
 */
const INGEST = /^(\/api)?(\/v1)?\/(runs(\/batch|\/multipart|\/[0-9a-f-]{36})?|otel\/v1\/traces)\/?(\?|$)/i;
const isIngest = (req) => req.method !== "GET" && INGEST.test(req.url ?? "");

function refuse(res, status, detail) {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ detail }));
}

/**
 * Ingest's routes, once Next.js has loaded them, are answered here with their own handlers
 * (server/http/direct.ts): Next's routing and request adapters cost more than the small ones need.
 * The answer gets the headers next.config.mjs gives every answer.
 */
const directRoutes = (globalThis.tracelightDirectRoutes ??= new Map());
const everyAnswer = Object.fromEntries(
  (await nextConfig.headers()).find((rule) => rule.source === "/:path*").headers.map((h) => [h.key, h.value]),
);

async function answerDirectly(handler, req, res) {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
      method: req.method,
      headers,
      body: Readable.toWeb(req),
      duplex: "half",
    });
    const response = await handler(request, { params: Promise.resolve({}) });
    const bytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...everyAnswer, ...Object.fromEntries(response.headers), "content-length": bytes.length });
    res.end(bytes);
  } catch (error) {
    if (req.destroyed) return void res.destroy(); // the client went away mid-body
    console.error("Ingest request failed:", error);
    if (!res.headersSent) refuse(res, 500, "Internal error.");
    else res.destroy();
  }
}

const app = next({ dev: false, dir: process.cwd(), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
const routeOf = routeLabels();

let inFlight = 0;
let stopping = false;
const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
  const started = process.hrtime.bigint();
  inFlight++;
  res.once("close", () => {
    inFlight--;
    // While stopping, a keep-alive connection is closed as soon as its last answer is out.
    if (stopping) server.closeIdleConnections();
    const route = routeOf(req.url);
    requests.inc({ method: req.method, route, status: res.statusCode });
    durations.observe({ method: req.method, route }, Number(process.hrtime.bigint() - started) / 1e9);
  });
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBodyBytes) {
    return refuse(res, 413, `Request body is ${declared} bytes; the limit is ${maxBodyBytes} bytes (MAX_BODY_BYTES).`);
  }
  try {
    decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  } catch {
    return refuse(res, 400, `The path ${JSON.stringify(req.url)} is not valid percent-encoding.`);
  }
  req.headers["x-forwarded-for"] = callerAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
  delete req.headers["x-real-ip"];
  if (isIngest(req)) {
    delete req.headers["accept-encoding"];
    const direct = req.method === "POST" && directRoutes.get(`POST ${rewrittenPath(req.url.split("?")[0])}`);
    if (direct) return void answerDirectly(direct, req, res);
  }
  handle(req, res);
});
// Node answers 408 itself when a request's body has not fully arrived within requestTimeout.
server.requestTimeout = requestTimeoutMs;
server.headersTimeout = Math.min(requestTimeoutMs, 60_000);
server.listen(port, hostname, () => console.log(`Listening on http://${hostname ?? "localhost"}:${port}`));

/**
 * Stops accepting, answers what is in flight (keep-alive connections are closed as they go idle),
 * then stops this instance's jobs — running ones finish — and closes the database: an acknowledged
 * run is committed before its answer is sent, so nothing acknowledged is lost. Bounded: after
 * SHUTDOWN_TIMEOUT_MS it exits anyway (a running job is then run again elsewhere when its lease ends).
 */
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: finishing ${inFlight} in-flight request(s), then stopping.`);
  setTimeout(() => {
    console.error(`Shutdown took longer than ${shutdownTimeoutMs} ms; exiting.`);
    process.exit(1);
  }, shutdownTimeoutMs).unref();
  await new Promise((resolve) => {
    server.close(resolve);
    server.closeIdleConnections();
  });
  await globalThis.tracelightShutdown?.();
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void shutdown(signal));
