import { healthz } from "@/server/ops/routes";

export const dynamic = "force-dynamic";

/** Process up: 200 while this instance runs (liveness). */
export const GET = healthz;
