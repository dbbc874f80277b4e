import { createHash, timingSafeEqual } from "node:crypto";
import { env, regionBaseUrl } from "../env";
import { AppError, notFound, unauthorized } from "../core/errors";
import type { UsageDelta } from "./schema";

export const INTERNAL_USAGE_PATH = "/internal/billing/usage";
const DELIVERY_TIMEOUT_MS = 30_000;

const digest = (value: string) => createHash("sha256").update(value).digest();

/** The deployments' shared secret, compared in constant time (as digests, so lengths never leak). */
export function checkInternalSecret(given: string | null): void {
  if (!given || !timingSafeEqual(digest(given), digest(env().INTERNAL_SECRET))) {
    throw unauthorized("Missing or wrong x-internal-secret: this endpoint is for Tracelight deployments only.");
  }
}

/** Billing records exist only in the US deployment; the EU deployment refuses billing endpoints. */
export function requireUsDeployment(): void {
  if (env().REGION !== "us") {
    throw notFound(
      `Billing records exist only in the US deployment (${regionBaseUrl("us")}); this is the ${env().REGION.toUpperCase()} deployment.`,
    );
  }
}

/** Sends a batch to the US deployment; throws (with what went wrong) unless it was accepted. */
export async function deliverToUs(deltas: UsageDelta[]): Promise<void> {
  const url = `${regionBaseUrl("us")}${INTERNAL_USAGE_PATH}`;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-internal-secret": env().INTERNAL_SECRET },
    body: JSON.stringify({ region: env().REGION, deltas }),
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  }).catch((error: Error) => {
    throw new Error(`POST ${url} failed: ${error.cause instanceof Error ? error.cause.message : error.message}`);
  });
  const text = await response.text().catch(() => "");
  if (!response.ok) throw new Error(`POST ${url} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
}

/** Reads a workspace's billing from the US deployment (for GET /usage in the EU). */
export async function fetchUsageFromUs(workspaceId: string): Promise<Record<string, unknown>> {
  const url = `${regionBaseUrl("us")}${INTERNAL_USAGE_PATH}?workspace_id=${encodeURIComponent(workspaceId)}`;
  const where = `Billing lives in the US deployment (${regionBaseUrl("us")})`;
  const response = await fetch(url, {
    headers: { "x-internal-secret": env().INTERNAL_SECRET },
    signal: AbortSignal.timeout(10_000),
  }).catch((error: Error) => {
    throw new AppError(502, `${where} and it could not be reached: ${error.cause instanceof Error ? error.cause.message : error.message}.`);
  });
  if (!response.ok) throw new AppError(502, `${where}; it answered HTTP ${response.status}.`);
  return (await response.json()) as Record<string, unknown>;
}
