// `npm run worker`: a process that answers no API request and runs the background work — rules and
// their webhooks, evaluations and backfills, prompt webhooks, rollup compaction, planner statistics,
// the billing outbox — beside any number of web instances (started with JOB_WORKERS=0) on one
// PostgreSQL. With WORKER_PORT it serves /healthz, /readyz and /metrics. On SIGTERM it stops taking
// jobs, lets running ones finish (at most SHUTDOWN_TIMEOUT_MS) and exits; a job cut short is run
// again by another worker when its lease (JOB_LEASE_SECONDS) ends.
import { createServer, type Server } from "node:http";
import "./background";
import { startBillingDrain } from "./billing/drain";
import { database } from "./db/client";
import { env } from "./env";
import { startJobs, stopJobs } from "./jobs/queue";
import { healthz, metrics, readyz } from "./ops/routes";

async function main(): Promise<void> {
  const config = env();
  if (!config.DATABASE_URL) {
    console.error("npm run worker needs DATABASE_URL (PostgreSQL): with the embedded database the web process runs the workers itself.");
    process.exit(1);
  }
  const db = await database();
  startBillingDrain(db.sql);
  await startJobs(db.sql, Math.max(1, config.JOB_WORKERS));
  const server = config.WORKER_PORT ? serveHealth(config.WORKER_PORT) : null;
  console.log(`Tracelight worker is running (${Math.max(1, config.JOB_WORKERS)} workers per queue).`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: letting running jobs finish, then stopping.`);
    setTimeout(() => {
      console.error(`Shutdown took longer than ${config.SHUTDOWN_TIMEOUT_MS} ms; exiting.`);
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    server?.close();
    await stopJobs();
    await db.close();
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void stop(signal));
}

/** /healthz, /readyz and /metrics on `port`, for the orchestrator and Prometheus. */
function serveHealth(port: number): Server {
  const routes: Record<string, (request: Request) => Response | Promise<Response>> = {
    "/healthz": healthz,
    "/readyz": readyz,
    "/metrics": metrics,
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://worker");
    const route = routes[url.pathname];
    // No proxy is believed here: the caller (for METRICS_ALLOW) is the socket's peer.
    const caller = (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:(?=\d+\.)/, "");
    const answer = route
      ? await route(new Request(url, { headers: { ...(req.headers as Record<string, string>), "x-forwarded-for": caller } }))
      : Response.json({ detail: "Not found" }, { status: 404 });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(port, () => console.log(`Worker health and metrics on http://localhost:${port}`));
  return server;
}

main().catch((error) => {
  console.error("Tracelight worker could not start:", error);
  process.exit(1);
});
