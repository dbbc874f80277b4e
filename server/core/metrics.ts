import client from "prom-client";

/**
 * Prometheus metrics, in prom-client's default registry (one per process: scripts/serve.mjs adds
 * its request metrics to the same one). Next.js may load a module more than once, so each metric
 * is taken from the registry when it exists already.
 */
export function metric<T extends client.Metric>(name: string, make: (name: string) => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make(name);
}

export const ingestedRuns = metric(
  "tracelight_ingest_runs_total",
  (name) => new client.Counter({ name, help: "Runs taken by ingest: stored (created or updated) or refused", labelNames: ["outcome"] }),
);

export const jobFailures = metric(
  "tracelight_job_failures_total",
  (name) => new client.Counter({ name, help: "Job batches that failed (retried by the queue up to 3 times)", labelNames: ["queue"] }),
);

export const rollupRowsQuarantined = metric(
  "tracelight_rollup_rows_quarantined_total",
  (name) =>
    new client.Counter({
      name,
      help: "Rollup delta rows the fold could not merge, left unmerged (reads still count them) and skipped from then on",
      labelNames: ["table"],
    }),
);

export { client as prometheus };
