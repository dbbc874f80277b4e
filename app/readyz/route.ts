import { readyz } from "@/server/ops/routes";

export const dynamic = "force-dynamic";

/** 200 when the database, Redis (when configured) and blob storage answer; 503 naming what does not. */
export const GET = readyz;
