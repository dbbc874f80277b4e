import { metrics } from "@/server/ops/routes";

export const dynamic = "force-dynamic";

/** Prometheus metrics of this instance (requests, ingest, job queue, database pools, process). */
export const GET = metrics;
