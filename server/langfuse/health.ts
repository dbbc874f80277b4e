import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { SERVICE_VERSION } from "../info";

/** GET /api/public/health as Langfuse answers it; a database that does not answer fails it (the error mapper's 503). */
export async function langfuseHealth(db: Sql): Promise<{ status: "OK"; version: string }> {
  await db.query(sql`SELECT 1`);
  return { status: "OK", version: SERVICE_VERSION };
}
