import { metric, prometheus } from "../core/metrics";
import { database } from "../db/client";
import { queueDepths } from "../jobs/queue";

/** The queue's depths, or none before pg-boss has created its tables (a scrape never fails on them). */
const depths = async () => queueDepths((await database()).sql).catch(() => []);

const state = globalThis as unknown as { tracelightDefaultMetrics?: boolean };

/** The scrape: process metrics, and gauges read at scrape time from the queue and the pools. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  if (!state.tracelightDefaultMetrics) {
    state.tracelightDefaultMetrics = true;
    prometheus.collectDefaultMetrics();
  }
  registerGauges();
  return { contentType: prometheus.register.contentType, text: await prometheus.register.metrics() };
}

function registerGauges(): void {
  metric(
    "tracelight_job_queue_waiting",
    (name) =>
      new prometheus.Gauge({
        name,
        help: "Jobs waiting to run, per queue",
        labelNames: ["queue"],
        async collect() {
          for (const depth of await depths()) this.set({ queue: depth.queue }, depth.waiting);
        },
      }),
  );
  metric(
    "tracelight_job_queue_oldest_seconds",
    (name) =>
      new prometheus.Gauge({
        name,
        help: "Age of the oldest waiting job, per queue (0 when none waits)",
        labelNames: ["queue"],
        async collect() {
          for (const depth of await depths()) this.set({ queue: depth.queue }, depth.oldestSeconds);
        },
      }),
  );
  metric(
    "tracelight_db_pool_connections",
    (name) =>
      new prometheus.Gauge({
        name,
        help: "PostgreSQL pool connections by pool (requests, ingest) and state (total, idle, waiting callers)",
        labelNames: ["pool", "state"],
        async collect() {
          for (const pool of (await database()).poolStats()) {
            this.set({ pool: pool.name, state: "total" }, pool.total);
            this.set({ pool: pool.name, state: "idle" }, pool.idle);
            this.set({ pool: pool.name, state: "waiting" }, pool.waiting);
          }
        },
      }),
  );
  metric(
    "tracelight_db_replica_lag_seconds",
    (name) =>
      new prometheus.Gauge({
        name,
        help: "How far each read replica is at most behind the primary (absent while unknown or unreachable)",
        labelNames: ["replica"],
        async collect() {
          this.reset();
          for (const { name: replica, lagMs } of (await database()).replicaLag())
            if (lagMs !== undefined) this.set({ replica }, lagMs / 1000);
        },
      }),
  );
}
