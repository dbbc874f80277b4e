import type { RouterOutputs } from "@/app/trpc-types";
import { formatCost, formatLatency, formatPercent, formatTokens } from "../../../_components/format";
import { PALETTE } from "../../../_components/charts/palette";
import { Delta } from "./score";
import styles from "./compare.module.css";

type Comparison = RouterOutputs["experiments"]["compare"];

/** One card per experiment: its score on the chosen key against the baseline, verdict counts, cost and speed. */
export function Summaries({ comparison, onBaseline }: { comparison: Comparison; onBaseline: (id: string) => void }) {
  const key = comparison.score_key;
  const several = comparison.experiments.length > 1;
  return (
    <div className={styles.summaries} data-testid="experiment-summaries">
      {comparison.experiments.map((e, i) => {
        const baseline = several && e.id === comparison.baseline_id;
        const score = key ? e.feedback[key]?.avg : null;
        return (
          <div key={e.id} className={`card ${styles.summary} ${baseline ? styles.summaryBaseline : ""}`} data-testid="experiment-summary">
            <div className="row" style={{ gap: 6, minWidth: 0 }}>
              <span className={styles.swatch} style={{ background: PALETTE[i % PALETTE.length] }} />
              <strong className="truncate" title={e.name}>
                {e.name}
              </strong>
              <span className="grow" />
              {baseline ? (
                <span className="badge badge-accent">baseline</span>
              ) : several ? (
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => onBaseline(e.id)}>
                  Set as baseline
                </button>
              ) : null}
            </div>
            <div className={styles.summaryScore}>
              {score == null ? <span className="faint">–</span> : score.toFixed(3)}
              {key && (
                <span className="muted" style={{ fontSize: 12, fontWeight: 400 }}>
                  {key}
                </span>
              )}
              {!baseline && key && <Delta value={e.delta[key]} />}
            </div>
            {several && !baseline && key && (
              <div className="row" style={{ gap: 10, fontSize: 12 }}>
                <span className={styles.up}>{e.verdicts.better} better</span>
                <span className={styles.down}>{e.verdicts.worse} worse</span>
                <span className="muted">{e.verdicts.same} same</span>
              </div>
            )}
            <div className={styles.summaryFacts}>
              {Object.entries(e.feedback)
                .filter(([k]) => k !== key)
                .map(([k, f]) => (
                  <span key={k}>
                    {k} {f.avg == null ? "–" : f.avg.toFixed(2)}
                  </span>
                ))}
            </div>
            <div className={styles.summaryFacts}>
              <span>p50 {formatLatency(e.latency_p50)}</span>
              <span>{formatTokens(e.total_tokens)} tokens</span>
              <span>{formatCost(e.total_cost)}</span>
              <span>errors {formatPercent(e.error_rate)}</span>
            </div>
          </div>
        );
      })}
    </div>
  );
}
