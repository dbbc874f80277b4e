import { env } from "../env";
import type { AlertMetric, Comparison } from "./schema";
import type { Destination } from "./store";

/** What a notification tells: the rule, the change, the value seen over the window. */
export interface AlertNotice {
  eventId: string;
  kind: "fired" | "resolved" | "test";
  rule: {
    id: string;
    workspaceId: string;
    name: string;
    metric: AlertMetric;
    feedbackKey: string | null;
    feedbackValue: string | null;
    comparison: Comparison;
    threshold: number;
    windowMinutes: number;
    projectId: string | null;
    projectName: string | null;
    filter: string | null;
  };
  fromState: string | null;
  toState: string;
  value: number | null;
  windowStart: string;
  windowEnd: string;
  source: string | null;
}

export const DELIVERY_HEADER = "X-Tracelight-Delivery";

const SIGNS: Record<Comparison, string> = { gt: ">", gte: "≥", lt: "<", lte: "≤" };
const LABELS: Record<AlertMetric, string> = {
  error_rate: "error rate",
  run_count: "run count",
  latency_p50: "latency p50",
  latency_p95: "latency p95",
  latency_p99: "latency p99",
  first_token_p95: "time to first token p95",
  total_cost: "total cost",
  feedback_mean: "mean feedback",
  feedback_share: "feedback share",
  evaluator_spend_share: "evaluator spend (share of the limit)",
};

export function metricLabel(rule: Pick<AlertNotice["rule"], "metric" | "feedbackKey" | "feedbackValue">): string {
  if (rule.metric === "feedback_mean") return `mean of feedback "${rule.feedbackKey}"`;
  if (rule.metric === "feedback_share") return `share of feedback "${rule.feedbackKey}" = "${rule.feedbackValue}"`;
  return LABELS[rule.metric];
}

/** A value in the metric's unit: a percentage, seconds, dollars or a count. */
export function formatValue(metric: AlertMetric, value: number | null): string {
  if (value === null) return "no data";
  if (metric === "error_rate" || metric === "feedback_share" || metric === "evaluator_spend_share")
    return `${(value * 100).toFixed(value < 0.1 ? 2 : 1)}%`;
  if (metric.startsWith("latency_") || metric === "first_token_p95") return `${value.toFixed(value < 10 ? 2 : 1)} s`;
  if (metric === "total_cost") return `$${value.toFixed(4)}`;
  if (metric === "run_count") return String(Math.round(value));
  return value.toFixed(3);
}

const HEADS = { fired: "Firing", resolved: "Resolved", test: "Test" } as const;

/** One line: "Firing: checkout errors — error rate 40.0% > 20.0% over the last 5 min (project shop)". */
export function summary(n: AlertNotice): string {
  const r = n.rule;
  const where = r.projectName ? ` (project ${r.projectName})` : "";
  return `${HEADS[n.kind]}: ${r.name} — ${metricLabel(r)} ${formatValue(r.metric, n.value)} ${SIGNS[r.comparison]} ${formatValue(r.metric, r.threshold)} over the last ${r.windowMinutes} min${where}`;
}

const link = (n: AlertNotice) => {
  const base = env().PUBLIC_URL;
  return base ? `${base.replace(/\/$/, "")}/o/${n.rule.workspaceId}/alerts?alert=${n.rule.id}` : null;
};

/** PagerDuty groups a rule's trigger and resolve into one incident by this key. */
export const dedupKey = (ruleId: string) => `tracelight-alert-${ruleId}`;

/** The generic JSON body. */
function genericBody(n: AlertNotice) {
  const r = n.rule;
  return {
    event: `alert.${n.kind}`,
    event_id: n.eventId,
    summary: summary(n),
    alert: {
      id: r.id,
      name: r.name,
      metric: r.metric,
      feedback_key: r.feedbackKey,
      feedback_value: r.feedbackValue,
      comparison: r.comparison,
      threshold: r.threshold,
      window_minutes: r.windowMinutes,
      session_id: r.projectId,
      session_name: r.projectName,
      filter: r.filter,
    },
    previous_state: n.fromState,
    state: n.toState,
    value: n.value,
    window: { start: n.windowStart, end: n.windowEnd },
    source: n.source,
    url: link(n),
  };
}

/** Slack's incoming-webhook body: `text` (the notification's fallback) and Block Kit `blocks`. */
function slackBody(n: AlertNotice) {
  const r = n.rule;
  const icon = n.kind === "fired" ? ":red_circle:" : n.kind === "resolved" ? ":large_green_circle:" : ":white_circle:";
  const url = link(n);
  return {
    text: summary(n),
    blocks: [
      { type: "header", text: { type: "plain_text", text: `${HEADS[n.kind]}: ${r.name}`.slice(0, 150) } },
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `${icon} *${metricLabel(r)}* is *${formatValue(r.metric, n.value)}* (threshold ${SIGNS[r.comparison]} ${formatValue(r.metric, r.threshold)}) over the last ${r.windowMinutes} min.`,
        },
        fields: [
          { type: "mrkdwn", text: `*Project*\n${r.projectName ?? "—"}` },
          { type: "mrkdwn", text: `*State*\n${n.fromState ?? "—"} → ${n.toState}` },
          ...(r.filter ? [{ type: "mrkdwn", text: `*Filter*\n\`${r.filter.slice(0, 1900)}\`` }] : []),
        ],
      },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: `Tracelight alert · window ${n.windowStart} – ${n.windowEnd}${url ? ` · <${url}|open>` : ""}` }],
      },
    ],
  };
}

/** PagerDuty Events API v2: trigger on fire, resolve (same dedup_key) on resolve. */
function pagerDutyBody(n: AlertNotice, d: Destination) {
  const r = n.rule;
  const url = link(n);
  return {
    routing_key: d.routingKey,
    event_action: n.kind === "resolved" ? "resolve" : "trigger",
    // A test opens its own incident, never the rule's.
    dedup_key: n.kind === "test" ? `${dedupKey(r.id)}-test` : dedupKey(r.id),
    payload: {
      summary: summary(n).slice(0, 1024),
      severity: d.severity ?? "error",
      source: r.projectName ? `tracelight/${r.projectName}` : "tracelight",
      component: r.projectName ?? undefined,
      class: r.metric,
      timestamp: n.windowEnd,
      custom_details: genericBody(n),
    },
    client: "Tracelight",
    ...(url ? { client_url: url, links: [{ href: url, text: "Open the alert in Tracelight" }] } : {}),
  };
}

export function bodyFor(n: AlertNotice, d: Destination): unknown {
  if (d.kind === "slack") return slackBody(n);
  if (d.kind === "pagerduty") return pagerDutyBody(n, d);
  return genericBody(n);
}
