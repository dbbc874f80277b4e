import { z } from "zod";

/**
 * What self-hosted deployments send (after LangSmith's documented beacon payloads: a `license` key,
 * `from_timestamp`/`to_timestamp` windows, string `tags` and numeric `measures` such as
 * "langsmith.traces" or "langgraph.platform.runs", optional `logs`; license verification sends just
 * `{license}`; trace reporting sends `trace_transactions`). Unknown top-level fields are kept.
 */
const secretish = z.string().trim().min(1, "must not be empty").max(512);
const instant = z
  .string()
  .max(64)
  .refine(
    (v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) && !Number.isNaN(Date.parse(v)),
    "must be an ISO-8601 date-time, e.g. 2025-01-06T09:00:00Z",
  );
const key = z.string().min(1).max(200);
const tags = z
  .record(key, z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
  .refine((t) => Object.keys(t).length <= 200, "must have at most 200 entries");
const measures = z
  .record(key, z.number().finite("must be a finite number").nonnegative("must not be negative"))
  .refine((m) => Object.keys(m).length <= 200, "must have at most 200 entries");
const logs = z.array(z.record(z.string(), z.unknown())).max(500, "must have at most 500 entries");

const identity = {
  /** The deployment's license key: stored only as its SHA-256 digest. */
  license: secretish.optional(),
  /** Deployments that report with an API key instead of a license: also digest only. */
  api_key: secretish.optional(),
  instance_id: z.string().trim().min(1).max(200).optional(),
  version: z.string().trim().min(1).max(100).optional(),
};

function identified(value: { license?: string; api_key?: string; instance_id?: string }, ctx: z.RefinementCtx): void {
  if (!value.license && !value.api_key && !value.instance_id) {
    ctx.addIssue({ code: "custom", path: ["license"], message: "one of license, api_key or instance_id is required" });
  }
}

function window(value: { from_timestamp?: string; to_timestamp?: string }, ctx: z.RefinementCtx): void {
  if (!value.from_timestamp || !value.to_timestamp) return;
  const from = Date.parse(value.from_timestamp);
  const to = Date.parse(value.to_timestamp);
  if (to < from) ctx.addIssue({ code: "custom", path: ["to_timestamp"], message: "must not be before from_timestamp" });
  else if (to - from > 31 * 86_400_000)
    ctx.addIssue({ code: "custom", path: ["to_timestamp"], message: "the window from from_timestamp must be at most 31 days" });
}

/** POST */
export const metadataSubmit = z
  .looseObject({
    ...identity,
    from_timestamp: instant,
    to_timestamp: instant,
    tags: tags.optional(),
    measures: measures.optional(),
    logs: logs.optional(),
  })
  .superRefine(identified)
  .superRefine(window);
export type MetadataSubmit = z.infer<typeof metadataSubmit>;

const traceTransaction = z.looseObject({
  id: z.string().max(100).optional(),
  tenant_id: z.string().max(100).optional(),
  session_id: z.string().max(100).optional(),
  trace_count: z.number().int("must be an integer").nonnegative("must not be negative"),
  start_interval_time: instant.optional(),
  end_interval_time: instant.optional(),
});

/** POST /v1/beacon: a heartbeat, a license check (`{license}`), or trace counts. */
export const beaconReport = z
  .looseObject({
    ...identity,
    event: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[\w.:-]+$/, "must be a word such as heartbeat or verify")
      .default("heartbeat"),
    from_timestamp: instant.optional(),
    to_timestamp: instant.optional(),
    tags: tags.optional(),
    measures: measures.optional(),
    trace_transactions: z.array(traceTransaction).max(1000, "must have at most 1000 entries").optional(),
    logs: logs.optional(),
  })
  .superRefine(identified)
  .superRefine(window);
export type BeaconReport = z.infer<typeof beaconReport>;
