"use client";

import type { LlmDetails } from "@/server/runs/llm-details";
import type { RunFull } from "@/server/trpc/types";
import { formatCost, formatLatency, formatTokens, secondsBetween } from "../format";
import styles from "./run-detail.module.css";

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

const BREAKDOWN: [key: string, label: string][] = [
  ["cache_read", "Cache read"],
  ["cache_creation", "Cache write"],
  ["reasoning", "Reasoning"],
  ["input_audio", "Input audio"],
  ["output_audio", "Output audio"],
];

const COST_LABELS: Record<string, string> = {
  input: "Input", output: "Output", cache_read: "Cache read", cache_write: "Cache write", reasoning: "Reasoning",
  input_audio: "Input audio", output_audio: "Output audio",
};

/** Latency, time to first token, tokens and cost with their breakdown (what ingest derived). */
export function UsagePanel({ run, details }: { run: RunFull; details: LlmDetails | null | undefined }) {
  const firstToken = secondsBetween(run.start_time, run.first_token_time);
  const usage = details?.usage_details ?? {};
  const costs = (usage.cost && typeof usage.cost === "object" ? usage.cost : {}) as Record<string, number>;
  const estimated = details?.tokens_estimated ?? false;
  const breakdown = BREAKDOWN.filter(([k]) => num(usage[k]) > 0);
  const costRows = Object.entries(costs).filter(([, v]) => typeof v === "number" && v > 0);
  const hasTokens = run.total_tokens > 0 || run.prompt_tokens > 0 || run.completion_tokens > 0;
  return (
    <div className={styles.usage} data-testid="usage">
      <div className="stat-row">
        <div className="stat">
          <div className="stat-label">Latency</div>
          <div className="stat-value">{formatLatency(run.latency)}</div>
        </div>
        <div className="stat">
          <div className="stat-label">Time to first token</div>
          <div className="stat-value">{firstToken === null ? "–" : formatLatency(firstToken)}</div>
        </div>
        <div className="stat">
          <div className="stat-label">Tokens{estimated ? <span className={styles.estimated} title="The run reported no usage: counted with a tokenizer"> estimated</span> : null}</div>
          <div className="stat-value">{hasTokens ? formatTokens(run.total_tokens) : "–"}</div>
        </div>
        <div className="stat">
          <div className="stat-label">Cost{usage.cost_reported ? <span className={styles.dimNote} title="Sent by the caller"> reported</span> : null}</div>
          <div className="stat-value">{formatCost(run.total_cost)}</div>
        </div>
      </div>
      {hasTokens && (
        <table className={styles.breakdown}>
          <thead>
            <tr><th /><th className="num">Tokens</th><th className="num">Cost</th></tr>
          </thead>
          <tbody>
            <tr><td>Prompt</td><td className="num">{formatTokens(run.prompt_tokens)}</td><td className="num">{formatCost(run.prompt_cost)}</td></tr>
            {breakdown.filter(([k]) => k === "cache_read" || k === "cache_creation" || k === "input_audio").map(([k, label]) => (
              <tr key={k} className={styles.sub}><td>{label}</td><td className="num">{formatTokens(num(usage[k]))}</td><td className="num">{formatCost(costs[k === "cache_creation" ? "cache_write" : k])}</td></tr>
            ))}
            <tr><td>Completion</td><td className="num">{formatTokens(run.completion_tokens)}</td><td className="num">{formatCost(run.completion_cost)}</td></tr>
            {breakdown.filter(([k]) => k === "reasoning" || k === "output_audio").map(([k, label]) => (
              <tr key={k} className={styles.sub}><td>{label}</td><td className="num">{formatTokens(num(usage[k]))}</td><td className="num">{formatCost(costs[k])}</td></tr>
            ))}
            <tr className={styles.total}><td>Total</td><td className="num">{formatTokens(run.total_tokens)}</td><td className="num">{formatCost(run.total_cost)}</td></tr>
          </tbody>
        </table>
      )}
      {(details?.model || typeof usage.price_model === "string" || costRows.length > 0) && (
        <div className={styles.modelLine}>
          {details?.model && <span>Model <code>{details.model}</code></span>}
          {details?.provider && <span>Provider <code>{details.provider}</code></span>}
          {typeof usage.price_model === "string" && <span>Priced as <code>{usage.price_model}</code></span>}
          {costRows.length > 0 && (
            <span className="muted">
              {costRows.map(([k, v]) => `${COST_LABELS[k] ?? k} ${formatCost(v)}`).join(" · ")}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
