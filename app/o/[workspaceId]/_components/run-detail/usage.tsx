"use client";

import type { LlmDetails } from "@/server/runs/llm-details";
import type { RunFull } from "@/app/trpc-types";
import { formatCost, formatLatency, formatTokens, secondsBetween } from "../format";
import styles from "./run-detail.module.css";

/** Small costs with two significant digits, so a breakdown of fractions of a cent still reads. */
function preciseCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "–";
  if (usd === 0) return "$0";
  if (usd < 0.01)
    return `$${Number(usd.toPrecision(2))
      .toFixed(Math.min(10, 1 - Math.floor(Math.log10(usd))))
      .replace(/0+$/, "")}`;
  return formatCost(usd);
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

const BREAKDOWN: [key: string, label: string][] = [
  ["cache_read", "Cache read"],
  ["cache_creation", "Cache write"],
  ["reasoning", "Reasoning"],
  ["input_audio", "Input audio"],
  ["output_audio", "Output audio"],
];

const COST_LABELS: Record<string, string> = {
  input: "Input",
  output: "Output",
  cache_read: "Cache read",
  cache_write: "Cache write",
  reasoning: "Reasoning",
  input_audio: "Input audio",
  output_audio: "Output audio",
};

/** Latency, time to first token, tokens and cost with their breakdown (what ingest derived). */
export function UsagePanel({ run, details }: { run: RunFull; details: LlmDetails | null | undefined }) {
  const firstToken = secondsBetween(run.start_time, run.first_token_time);
  const usage = details?.usage_details ?? {};
  const costs = (usage.cost && typeof usage.cost === "object" ? usage.cost : {}) as Record<string, number>;
  const estimated = details?.tokens_estimated ?? false;
  const breakdown = BREAKDOWN.filter(([k]) => num(usage[k]) > 0);
  const costRows = Object.entries(costs).filter(([, v]) => typeof v === "number" && v > 0);
  const llm = run.run_type === "llm";
  const hasTokens = run.total_tokens > 0 || run.prompt_tokens > 0 || run.completion_tokens > 0;
  const cells = 1 + (firstToken !== null || llm ? 1 : 0) + (hasTokens || llm ? 2 : 0);
  return (
    <div className={styles.usage} data-testid="usage">
      <div className="stat-row" style={cells < 3 ? { maxWidth: cells * 200 } : undefined}>
        <div className="stat">
          <div className="stat-label">Latency</div>
          <div className="stat-value">{formatLatency(run.latency)}</div>
        </div>
        {(firstToken !== null || llm) && (
          <div className="stat">
            <div className="stat-label">Time to first token</div>
            <div className="stat-value">{firstToken === null ? "–" : formatLatency(firstToken)}</div>
          </div>
        )}
        {(hasTokens || llm) && (
          <>
            <div className="stat">
              <div className="stat-label">
                Tokens
                {estimated ? (
                  <span className={styles.estimated} title="The run reported no usage: counted with a tokenizer">
                    {" "}
                    estimated
                  </span>
                ) : null}
              </div>
              <div className="stat-value">{hasTokens ? formatTokens(run.total_tokens) : "–"}</div>
            </div>
            <div className="stat">
              <div className="stat-label">
                Cost
                {usage.cost_reported ? (
                  <span className={styles.dimNote} title="Sent by the caller">
                    {" "}
                    reported
                  </span>
                ) : null}
              </div>
              <div className="stat-value">{run.total_cost ? preciseCost(run.total_cost) : "–"}</div>
            </div>
          </>
        )}
      </div>
      {(hasTokens || details?.model) && (
        <div className={styles.usageDetails}>
          {hasTokens && (
            <table className={styles.breakdown}>
              <thead>
                <tr>
                  <th />
                  <th className="num">Tokens</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>Prompt</td>
                  <td className="num">{formatTokens(run.prompt_tokens)}</td>
                  <td className="num">{preciseCost(run.prompt_cost)}</td>
                </tr>
                {breakdown
                  .filter(([k]) => k === "cache_read" || k === "cache_creation" || k === "input_audio")
                  .map(([k, label]) => (
                    <tr key={k} className={styles.sub}>
                      <td>{label}</td>
                      <td className="num">{formatTokens(num(usage[k]))}</td>
                      <td className="num">{preciseCost(costs[k === "cache_creation" ? "cache_write" : k])}</td>
                    </tr>
                  ))}
                <tr>
                  <td>Completion</td>
                  <td className="num">{formatTokens(run.completion_tokens)}</td>
                  <td className="num">{preciseCost(run.completion_cost)}</td>
                </tr>
                {breakdown
                  .filter(([k]) => k === "reasoning" || k === "output_audio")
                  .map(([k, label]) => (
                    <tr key={k} className={styles.sub}>
                      <td>{label}</td>
                      <td className="num">{formatTokens(num(usage[k]))}</td>
                      <td className="num">{preciseCost(costs[k])}</td>
                    </tr>
                  ))}
                <tr className={styles.total}>
                  <td>Total</td>
                  <td className="num">{formatTokens(run.total_tokens)}</td>
                  <td className="num">{preciseCost(run.total_cost)}</td>
                </tr>
              </tbody>
            </table>
          )}
          {(details?.model || typeof usage.price_model === "string" || costRows.length > 0) && (
            <dl className={styles.modelFacts}>
              {details?.model && (
                <>
                  <dt>Model</dt>
                  <dd>
                    <code>{details.model}</code>
                  </dd>
                </>
              )}
              {details?.provider && (
                <>
                  <dt>Provider</dt>
                  <dd>{details.provider}</dd>
                </>
              )}
              {typeof usage.price_model === "string" && (
                <>
                  <dt>Priced as</dt>
                  <dd>
                    <code>{usage.price_model}</code>
                  </dd>
                </>
              )}
              {costRows.length > 0 && (
                <>
                  <dt>Cost by type</dt>
                  <dd>{costRows.map(([k, v]) => `${COST_LABELS[k] ?? k} ${preciseCost(v)}`).join(" · ")}</dd>
                </>
              )}
              {estimated && (
                <>
                  <dt>Tokens</dt>
                  <dd className={styles.estimated}>estimated with a tokenizer (no usage reported)</dd>
                </>
              )}
            </dl>
          )}
        </div>
      )}
    </div>
  );
}
