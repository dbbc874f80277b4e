import { z } from "zod";
import type { AlertEvent, AlertRule } from "../db/generated/client";
import { decryptSecret, encryptSecret } from "../core/secret";
import { isoFromDb } from "../core/time";
import type { AlertMetric, AlertState, Comparison, DestinationInput, WireAlert } from "./schema";

/** PagerDuty's Events API v2, where a pagerduty destination posts unless given another URL. */
export const PAGERDUTY_EVENTS_URL = "https://events.pagerduty.com/v2/enqueue";

/** A destination as stored: secrets sealed (core/secret.ts), checked with zod when read back. */
const storedDestination = z.object({
  kind: z.enum(["webhook", "slack", "pagerduty"]),
  url: z.string(),
  severity: z.string().nullable().default(null),
  secret_sealed: z.string().nullable().default(null),
  routing_key_sealed: z.string().nullable().default(null),
});
type StoredDestination = z.infer<typeof storedDestination>;

/** A destination ready to send to: its secrets unsealed. */
export interface Destination {
  kind: "webhook" | "slack" | "pagerduty";
  url: string;
  severity: string | null;
  secret: string | null;
  routingKey: string | null;
}

export function sealDestinations(input: DestinationInput[]): StoredDestination[] {
  return input.map((d) => ({
    kind: d.kind,
    url: d.kind === "pagerduty" ? (d.url ?? PAGERDUTY_EVENTS_URL) : d.url,
    severity: d.kind === "pagerduty" ? d.severity : null,
    secret_sealed: d.secret ? encryptSecret(d.secret) : null,
    routing_key_sealed: d.kind === "pagerduty" ? encryptSecret(d.routing_key) : null,
  }));
}

const stored = (rule: Pick<AlertRule, "destinations">) => z.array(storedDestination).parse(rule.destinations ?? []);

export function destinationsOf(rule: Pick<AlertRule, "destinations">): Destination[] {
  return stored(rule).map((d) => ({
    kind: d.kind,
    url: d.url,
    severity: d.severity,
    secret: d.secret_sealed ? decryptSecret(d.secret_sealed) : null,
    routingKey: d.routing_key_sealed ? decryptSecret(d.routing_key_sealed) : null,
  }));
}

export interface Rule {
  id: string;
  workspaceId: string;
  projectId: string | null;
  evaluatorId: string | null;
  name: string;
  filter: string | null;
  rootRunsOnly: boolean;
  metric: AlertMetric;
  feedbackKey: string | null;
  feedbackValue: string | null;
  comparison: Comparison;
  threshold: number;
  windowMinutes: number;
  state: AlertState;
  mutedUntil: Date | null;
  row: AlertRule;
}

export const asRule = (row: AlertRule): Rule => ({
  ...row,
  metric: row.metric as AlertMetric,
  comparison: row.comparison as Comparison,
  state: row.state as AlertState,
  row,
});

export function toWire(row: AlertRule): WireAlert {
  return {
    id: row.id,
    tenant_id: row.workspaceId,
    name: row.name,
    session_id: row.projectId,
    filter: row.filter,
    root_runs_only: row.rootRunsOnly,
    metric: row.metric as AlertMetric,
    feedback_key: row.feedbackKey,
    feedback_value: row.feedbackValue,
    evaluator_id: row.evaluatorId,
    comparison: row.comparison as Comparison,
    threshold: row.threshold,
    window_minutes: row.windowMinutes,
    destinations: stored(row).map((d) => ({
      kind: d.kind,
      url: d.url,
      severity: d.severity,
      signed: d.secret_sealed !== null,
      routing_key: d.routing_key_sealed ? ("<redacted>" as const) : null,
    })),
    is_enabled: row.isEnabled,
    muted_until: isoFromDb(row.mutedUntil),
    state: row.state as AlertState,
    state_since: isoFromDb(row.stateSince)!,
    last_value: row.lastValue,
    last_source: row.lastSource,
    last_evaluated_at: isoFromDb(row.lastEvaluatedAt),
    created_at: isoFromDb(row.createdAt)!,
    updated_at: isoFromDb(row.updatedAt)!,
  };
}

export const eventToWire = (e: AlertEvent, deliveries: WireDeliveryRow[]) => ({
  id: e.id,
  kind: e.kind as "fired" | "resolved" | "no_data" | "ok" | "test",
  from_state: e.fromState,
  to_state: e.toState,
  value: e.value,
  threshold: e.threshold,
  comparison: e.comparison,
  window_start: isoFromDb(e.windowStart)!,
  window_end: isoFromDb(e.windowEnd)!,
  source: e.source,
  created_at: isoFromDb(e.createdAt)!,
  deliveries,
});

export interface WireDeliveryRow {
  destination: number;
  kind: string;
  outcome: string;
  status_code: number | null;
  attempts: number;
  detail: string | null;
  created_at: string;
}
