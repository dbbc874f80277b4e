import { z } from "zod";
import { uuid } from "../core/uuid";

export const SPEND_WINDOWS = ["daily", "weekly", "monthly"] as const;
export type SpendWindow = (typeof SPEND_WINDOWS)[number];

/**
 * PUT /spend-limits: a limit on the workspace's evaluators, its playground, or one evaluator (as
 * LangSmith's `spend_limit`: `limit_usd` per `window`); `limit_usd: null` removes it.
 */
export const spendLimitSet = z
  .object({
    target: z.enum(["evaluators", "playground", "evaluator"]),
    evaluator_id: uuid.nullish(),
    limit_usd: z.coerce.number().finite().min(0).max(1_000_000_000).nullable(),
    window: z.enum(SPEND_WINDOWS).default("monthly"),
  })
  .refine((l) => (l.target === "evaluator") === !!l.evaluator_id, {
    message: "evaluator_id is required with target evaluator, and only with it",
    path: ["evaluator_id"],
  });
export type SpendLimitSet = z.infer<typeof spendLimitSet>;

/** A limit with what was spent in its current window (LangSmith's OnlineSpendLimit plus the spend). */
export const wireSpendLimit = z.object({
  target: z.enum(["evaluators", "playground", "evaluator"]),
  evaluator_id: z.string().nullable(),
  limit_usd: z.number(),
  window: z.enum(SPEND_WINDOWS),
  window_start: z.string(),
  spend_usd: z.number(),
  utilization_pct: z.number(),
});
export type WireSpendLimit = z.infer<typeof wireSpendLimit>;
