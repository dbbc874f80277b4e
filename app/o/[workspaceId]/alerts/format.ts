/** How an alert metric's values read: a percentage, seconds, dollars or a count. */
export function formatAlertValue(metric: string, value: number | null | undefined, axis = false): string {
  if (value === null || value === undefined) return "no data";
  if (metric === "error_rate" || metric === "feedback_share" || metric === "evaluator_spend_share")
    return `${+(value * 100).toFixed(axis ? 0 : 1)}%`;
  if (metric.startsWith("latency_") || metric === "first_token_p95")
    return value < 1 ? `${Math.round(value * 1000)} ms` : `${+value.toFixed(2)} s`;
  if (metric === "total_cost") return value === 0 ? "$0" : `$${value < 0.01 ? Number(value.toPrecision(2)) : +value.toFixed(2)}`;
  if (metric === "run_count") return String(Math.round(value));
  return String(+value.toFixed(3));
}

export const METRICS: { value: string; label: string }[] = [
  { value: "error_rate", label: "Error rate" },
  { value: "run_count", label: "Run count" },
  { value: "latency_p50", label: "Latency p50 (s)" },
  { value: "latency_p95", label: "Latency p95 (s)" },
  { value: "latency_p99", label: "Latency p99 (s)" },
  { value: "first_token_p95", label: "Time to first token p95 (s)" },
  { value: "total_cost", label: "Total cost ($)" },
  { value: "feedback_mean", label: "Mean of a feedback key" },
  { value: "feedback_share", label: "Share of a feedback value" },
  { value: "evaluator_spend_share", label: "Evaluator spend (share of the limit)" },
];

export const metricName = (metric: string) => METRICS.find((m) => m.value === metric)?.label ?? metric;
export const SIGNS: Record<string, string> = { gt: ">", gte: "≥", lt: "<", lte: "≤" };
/** Rates and shares are entered and shown in percent; the API takes 0–1. */
export const isShare = (metric: string) => metric === "error_rate" || metric === "feedback_share" || metric === "evaluator_spend_share";
