import type { RouterOutputs } from "@/app/trpc-types";
import { formatCost, formatLatency, formatPercent, formatTokens } from "../../../_components/format";
import { PALETTE } from "../../../_components/charts/palette";
import { Delta, toneClass } from "./score";
import styles from "./compare.module.css";

type Comparison = RouterOutputs["experiments"]["compare"];
type Summary = Comparison["experiments"][number];

/** Every feedback key of one experiment: its mean (coloured), the change and the example verdicts against the baseline. */
function KeyTable({
  summary,
  keys,
  chosen,
  against,
  onKey,
}: {
  summary: Summary;
  keys: string[];
  chosen: string | null;
  against: boolean;
  onKey: (key: string) => void;
}) {
  return (
    <table className={styles.keyTable} data-testid="summary-keys">
      <tbody>
        {keys.map((key) => {
          const avg = summary.feedback[key]?.avg;
          const v = summary.verdicts_by_key[key];
          return (
            <tr
              key={key}
              className={key === chosen ? styles.keyChosen : ""}
              aria-current={key === chosen ? "true" : undefined}
              onClick={() => onKey(key)}
              title={`Show ${key}`}
              data-key={key}
            >
              <td>{key}</td>
              <td>
                {avg == null ? (
                  <span className="faint">–</span>
                ) : (
                  <span className={`${styles.chip} ${toneClass(avg)}`}>{avg.toFixed(2)}</span>
                )}
              </td>
              {against && (
                <>
                  <td style={{ minWidth: 46, textAlign: "right" }}>
                    <Delta value={summary.delta[key]} />
                  </td>
                  <td className={v?.better ? styles.up : "faint"} data-testid="key-better">
                    {v?.better ?? 0} better
                  </td>
                  <td className={v?.worse ? styles.down : "faint"} data-testid="key-worse">
                    {v?.worse ?? 0} worse
                  </td>
                </>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * One card per experiment: every feedback key's mean against the baseline with its better/worse
 * counts (a click picks the key the table judges by), cost and speed.
 */
export function Summaries({
  comparison,
  onBaseline,
  onKey,
}: {
  comparison: Comparison;
  onBaseline: (id: string) => void;
  onKey: (key: string) => void;
}) {
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
            {comparison.keys.length > 0 && (
              <KeyTable summary={e} keys={comparison.keys} chosen={key} against={several && !baseline} onKey={onKey} />
            )}
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
