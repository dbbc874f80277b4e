import type { Sql } from "../db/client";
import { env } from "../env";
import { applyUsageDeltas, billingUsage } from "./ledger";
import { checkInternalSecret, fetchUsageFromUs, requireUsDeployment } from "./internal";
import { unreportedUsage } from "./outbox";
import { parseJson } from "../http/body";
import { badRequest, describeZodError } from "../core/errors";
import { usageBatch } from "./schema";

/**
 * GET /usage: the workspace's plan and monthly usage. The US deployment reads its billing tables;
 * the EU deployment keeps no billing records and relays the question to the US deployment's internal
 * endpoint. Both add `unreported`: usage this deployment recorded that billing has not counted yet.
 */
export async function workspaceUsage(db: Sql, workspaceId: string): Promise<Record<string, unknown>> {
  const unreported = await unreportedUsage(db, workspaceId);
  const billed = env().REGION === "us" ? await billingUsage(db, workspaceId) : await fetchUsageFromUs(workspaceId);
  return { ...billed, unreported };
}

/**
 * POST /internal/billing/usage (US only, shared secret): counts each delta id at most once. The body
 * is read only after the deployment and the secret were checked.
 */
export async function receiveUsage(db: Sql, secret: string | null, body: Buffer): Promise<{ applied: number; duplicates: number }> {
  requireUsDeployment();
  checkInternalSecret(secret);
  const parsed = usageBatch.safeParse(parseJson(body));
  if (!parsed.success) throw badRequest(describeZodError(parsed.error, "body"));
  return applyUsageDeltas(db, parsed.data.region, parsed.data.deltas);
}

/** GET /internal/billing/usage?workspace_id= (US only, shared secret): any workspace's billing. */
export async function internalUsage(db: Sql, secret: string | null, workspaceId: string) {
  requireUsDeployment();
  checkInternalSecret(secret);
  return billingUsage(db, workspaceId);
}
