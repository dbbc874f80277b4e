import { z } from "zod";
import { uuid } from "../core/uuid";

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** One usage delta as it travels from an outbox to the US deployment. `id` makes a redelivery a no-op. */
export const usageDelta = z.object({
  id: uuid,
  workspace_id: uuid,
  /** The first day of the UTC month the usage happened in. */
  month: z.string().regex(/^\d{4}-\d{2}-01$/, "must be the first day of a month, YYYY-MM-01"),
  runs: count,
  traces: count,
});
export type UsageDelta = z.infer<typeof usageDelta>;

/** POST /internal/billing/usage: a batch from one deployment's outbox. */
export const usageBatch = z.object({
  region: z.enum(["us", "eu"]),
  deltas: z.array(usageDelta).max(1000),
});

/** GET /internal/billing/usage: the usage of any workspace, for the EU deployment's GET /usage. */
export const internalUsageQuery = z.object({ workspace_id: uuid });
