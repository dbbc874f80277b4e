import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import type { UsageDelta } from "./schema";

/**
 * US deployment only: counts usage deltas into the monthly usage table. Each delta id is recorded in
 * billing_applied_deltas in the same transaction as the increment, and a delta whose id is already
 * there is skipped, so a redelivery (after a lost answer, or from two instances) never counts twice.
 */
export async function applyUsageDeltas(
  db: Sql,
  region: "us" | "eu",
  deltas: UsageDelta[],
): Promise<{ applied: number; duplicates: number }> {
  if (deltas.length === 0) return { applied: 0, duplicates: 0 };
  const unique = [...new Map(deltas.map((d) => [d.id.toLowerCase(), d])).values()];
  return db.tx(async (tx) => {
    const fresh = await tx.query<{ id: string }>(sql`
      INSERT INTO billing_applied_deltas (id, region, workspace_id)
      SELECT v.id, ${region}, v.workspace_id FROM jsonb_to_recordset(${JSON.stringify(unique)}::jsonb) AS v(id uuid, workspace_id uuid)
      ON CONFLICT (id) DO NOTHING
      RETURNING id`);
    const ids = new Set(fresh.map((r) => r.id));
    const counted = unique.filter((d) => ids.has(d.id.toLowerCase()));
    if (counted.length) {
      await tx.query(sql`
        INSERT INTO workspace_billing (workspace_id, region)
        SELECT DISTINCT v.workspace_id, ${region} FROM jsonb_to_recordset(${JSON.stringify(counted)}::jsonb) AS v(workspace_id uuid)
        ON CONFLICT (workspace_id) DO NOTHING`);
      await tx.query(sql`
        INSERT INTO billing_usage (workspace_id, month, runs, traces)
        SELECT v.workspace_id, v.month, sum(v.runs), sum(v.traces)
        FROM jsonb_to_recordset(${JSON.stringify(counted)}::jsonb) AS v(workspace_id uuid, month date, runs bigint, traces bigint)
        GROUP BY v.workspace_id, v.month
        ON CONFLICT (workspace_id, month) DO UPDATE SET
          runs = billing_usage.runs + excluded.runs, traces = billing_usage.traces + excluded.traces, updated_at = now()`);
    }
    return { applied: counted.length, duplicates: deltas.length - counted.length };
  });
}

export interface MonthUsage {
  month: string;
  runs: number;
  traces: number;
}

export interface BillingUsage {
  workspace_id: string;
  billing_region: "us";
  /** Where the workspace's data lives, once billing has seen it. */
  region: "us" | "eu" | null;
  plan: { id: string; name: string; included_traces_per_month: number; monthly_price_cents: number };
  /** Newest first, at most 12 months. */
  months: MonthUsage[];
}

/** US deployment only: a workspace's plan and monthly usage. A workspace billing has not seen is on the free plan. */
export async function billingUsage(db: Sql, workspaceId: string): Promise<BillingUsage> {
  const [plan] = await db.query<BillingUsage["plan"] & { region: "us" | "eu" | null }>(sql`
    SELECT p.id, p.name, p.included_traces_per_month::float8 AS included_traces_per_month, p.monthly_price_cents, wb.region
    FROM billing_plans p
    LEFT JOIN workspace_billing wb ON wb.workspace_id = ${workspaceId}
    WHERE p.id = COALESCE(wb.plan_id, 'free')`);
  const months = await db.query<MonthUsage>(sql`
    SELECT to_char(month, 'YYYY-MM') AS month, runs::float8 AS runs, traces::float8 AS traces
    FROM billing_usage WHERE workspace_id = ${workspaceId}
    ORDER BY month DESC LIMIT 12`);
  const { region, ...rest } = plan;
  return { workspace_id: workspaceId, billing_region: "us", region: region ?? null, plan: rest, months };
}
