import { z } from "zod";
import { uuid } from "../core/uuid";

/** What a rule watches. Latencies and time to first token are in seconds, costs in dollars, rates and shares 0–1. */
export const ALERT_METRICS = [
  "error_rate",
  "run_count",
  "latency_p50",
  "latency_p95",
  "latency_p99",
  "first_token_p95",
  "total_cost",
  "feedback_mean",
  "feedback_share",
  "evaluator_spend_share",
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const COMPARISONS = ["gt", "gte", "lt", "lte"] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const ALERT_STATES = ["ok", "firing", "no_data"] as const;
export type AlertState = (typeof ALERT_STATES)[number];

const url = z.string().min(1).max(2048);
const secret = z.string().min(8, "must be at least 8 characters").max(512);

/**
 * Where a rule's notifications go: a generic JSON webhook, a Slack incoming webhook, or PagerDuty's
 * Events API v2 (its URL defaults to PagerDuty's). `secret` signs each body (X-Tracelight-Signature);
 * it and the routing key are stored sealed and never shown again.
 */
export const destinationInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("webhook"), url, secret: secret.nullish() }),
  z.object({ kind: z.literal("slack"), url, secret: secret.nullish() }),
  z.object({
    kind: z.literal("pagerduty"),
    url: url.nullish(),
    routing_key: z.string().min(1).max(200),
    severity: z.enum(["critical", "error", "warning", "info"]).default("error"),
    secret: secret.nullish(),
  }),
]);
export type DestinationInput = z.infer<typeof destinationInput>;

const fields = {
  name: z.string().trim().min(1, "must not be empty").max(200),
  /** The project whose runs are watched; not used by evaluator_spend_share. */
  session_id: uuid.nullish(),
  /** A filter in the filter language (e.g. `eq(name, "agent")`), narrowing the runs. */
  filter: z.string().max(10_000).nullish(),
  /** Root runs (traces) only, as the project's statistics count them; false counts every run. */
  root_runs_only: z.boolean().default(true),
  metric: z.enum(ALERT_METRICS),
  feedback_key: z.string().min(1).max(256).nullish(),
  feedback_value: z.string().min(1).max(1500).nullish(),
  /** For evaluator_spend_share: one evaluator's limit instead of the workspace's. */
  evaluator_id: uuid.nullish(),
  comparison: z.enum(COMPARISONS),
  threshold: z.number().finite(),
  window_minutes: z.number().int().min(1).max(10_080),
  destinations: z.array(destinationInput).max(10).default([]),
  is_enabled: z.boolean().default(true),
  muted_until: z.iso.datetime({ offset: true }).nullish(),
};

const needs = (rule: { metric?: string; session_id?: string | null; feedback_key?: string | null; feedback_value?: string | null }) =>
  [
    rule.metric !== "evaluator_spend_share" && !rule.session_id ? "session_id (the project) is required for this metric" : null,
    rule.metric?.startsWith("feedback_") && !rule.feedback_key ? "feedback_key is required for a feedback metric" : null,
    rule.metric === "feedback_share" && !rule.feedback_value ? "feedback_value is required for feedback_share" : null,
  ].filter((m): m is string => m !== null);

/** POST /alerts */
export const alertCreate = z.object(fields).superRefine((rule, ctx) => {
  for (const message of needs(rule)) ctx.addIssue({ code: "custom", message });
});
export type AlertCreate = z.infer<typeof alertCreate>;

/** PATCH /alerts/{id}: the fields sent change; `destinations` replaces them all (secrets must be sent again). */
export const alertUpdate = z.object({
  name: fields.name.optional(),
  session_id: fields.session_id,
  filter: fields.filter,
  root_runs_only: z.boolean().optional(),
  metric: fields.metric.optional(),
  feedback_key: fields.feedback_key,
  feedback_value: fields.feedback_value,
  evaluator_id: fields.evaluator_id,
  comparison: fields.comparison.optional(),
  threshold: fields.threshold.optional(),
  window_minutes: fields.window_minutes.optional(),
  destinations: z.array(destinationInput).max(10).optional(),
  is_enabled: z.boolean().optional(),
  muted_until: fields.muted_until,
});
export type AlertUpdate = z.infer<typeof alertUpdate>;
export { needs as missingFields };

export const alertListQuery = z.object({
  session_id: uuid.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const historyQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const wireDestination = z.object({
  kind: z.enum(["webhook", "slack", "pagerduty"]),
  url: z.string(),
  severity: z.string().nullable(),
  /** A signing secret is set (never shown). */
  signed: z.boolean(),
  /** PagerDuty: the routing key, redacted. */
  routing_key: z.literal("<redacted>").nullable(),
});

export const wireAlert = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  session_id: z.string().nullable(),
  filter: z.string().nullable(),
  root_runs_only: z.boolean(),
  metric: z.enum(ALERT_METRICS),
  feedback_key: z.string().nullable(),
  feedback_value: z.string().nullable(),
  evaluator_id: z.string().nullable(),
  comparison: z.enum(COMPARISONS),
  threshold: z.number(),
  window_minutes: z.number(),
  destinations: z.array(wireDestination),
  is_enabled: z.boolean(),
  muted_until: z.string().nullable(),
  state: z.enum(ALERT_STATES),
  state_since: z.string(),
  last_value: z.number().nullable(),
  /** Where the last evaluation read: "rollups", or "scan" when the filter is beyond the rollups' dimensions. */
  last_source: z.string().nullable(),
  last_evaluated_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WireAlert = z.infer<typeof wireAlert>;

export const wireDelivery = z.object({
  destination: z.number(),
  kind: z.string(),
  outcome: z.string(),
  status_code: z.number().nullable(),
  attempts: z.number(),
  detail: z.string().nullable(),
  created_at: z.string(),
});

export const wireAlertEvent = z.object({
  id: z.string(),
  kind: z.enum(["fired", "resolved", "no_data", "ok", "test"]),
  from_state: z.string().nullable(),
  to_state: z.string(),
  value: z.number().nullable(),
  threshold: z.number(),
  comparison: z.string(),
  window_start: z.string(),
  window_end: z.string(),
  source: z.string().nullable(),
  created_at: z.string(),
  deliveries: z.array(wireDelivery),
});
export type WireAlertEvent = z.infer<typeof wireAlertEvent>;

/** The metric's recent values (one per point, each over the rule's window ending there) beside the threshold. */
export const wireAlertSeries = z.object({
  points: z.array(z.object({ time: z.string(), value: z.number().nullable() })),
  threshold: z.number(),
  source: z.string(),
});

/** What a test notification did: the value measured now, and each destination's answer. */
export const wireAlertTest = z.object({
  value: z.number().nullable(),
  source: z.string(),
  deliveries: z.array(z.object({ destination: z.number(), ok: z.boolean(), status_code: z.number().nullable(), detail: z.string() })),
});
