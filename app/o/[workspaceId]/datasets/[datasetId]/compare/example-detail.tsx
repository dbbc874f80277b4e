import Link from "next/link";
import { useState } from "react";
import type { RouterOutputs } from "@/app/trpc-types";
import { JsonView } from "../../../_components/conversation/json-view";
import { MessageView } from "../../../_components/conversation/message";
import { formatCost, formatLatency, formatTokens, shortId } from "../../../_components/format";
import { OutputDiff, outputText } from "./output-diff";
import { ScoreChip } from "./score";
import styles from "./compare.module.css";

type Comparison = RouterOutputs["experiments"]["compare"];
type Row = Comparison["rows"][number];

/** The selected example whole: its inputs and reference, and each experiment's outputs diffed against the baseline or the reference. */
export function ExampleDetail({
  comparison,
  row,
  traceHref,
}: {
  comparison: Comparison;
  row: Row;
  traceHref: (experimentId: string, traceId: string) => string;
}) {
  const several = comparison.experiments.length > 1;
  const [against, setAgainst] = useState<"baseline" | "reference" | "none">(several ? "baseline" : "reference");
  const baselineRun = row.cells[comparison.baseline_id]?.runs[0];
  const reference = outputText(row.outputs);
  const base = against === "reference" ? reference : against === "baseline" && baselineRun ? outputText(baselineRun.outputs) : null;
  return (
    <section className={`card ${styles.detail}`} aria-label="Example" data-testid="example-detail">
      <div className="row">
        <h2>
          Example <span className="mono faint">{shortId(row.id)}</span>
        </h2>
        {!row.exists && <span className="badge badge-warn">deleted from the dataset</span>}
        <span className="grow" />
        <span className="muted">Diff against</span>
        <div className="segmented" role="group" aria-label="Diff against">
          {(several ? (["baseline", "reference", "none"] as const) : (["reference", "none"] as const)).map((a) => (
            <button key={a} type="button" aria-pressed={against === a} onClick={() => setAgainst(a)}>
              {a}
            </button>
          ))}
        </div>
      </div>
      <div className={styles.outputs}>
        <JsonView value={row.inputs} title="Inputs" />
        <JsonView value={row.outputs} title="Reference outputs" />
      </div>
      <div className={styles.outputs}>
        {comparison.experiments.map((e) => {
          const cell = row.cells[e.id];
          return (
            <div key={e.id} className="col" style={{ gap: 6, minWidth: 0 }}>
              <strong className="truncate">{e.name}</strong>
              {!cell ? (
                <span className="faint">Not run on this example.</span>
              ) : (
                cell.runs.map((run, i) => (
                  <div key={run.id} className="col" style={{ gap: 4 }}>
                    <div className="row" style={{ gap: 6, flexWrap: "wrap" }}>
                      {cell.runs.length > 1 && <span className="badge">repetition {i + 1}</span>}
                      {Object.entries(run.scores).map(([k, v]) => v !== null && <ScoreChip key={k} name={k} mean={v} spread={0} n={1} />)}
                      <span className="faint" style={{ fontSize: 11 }}>
                        {formatLatency(run.latency)} · {formatTokens(run.total_tokens)} tok · {formatCost(run.total_cost)}
                      </span>
                      <span className="grow" />
                      <Link href={traceHref(e.id, run.trace_id)} className="btn btn-sm btn-ghost">
                        Open trace
                      </Link>
                    </div>
                    {run.output_messages ? (
                      <div className="col" style={{ gap: 6 }}>
                        {run.output_messages.map((message, m) => (
                          <MessageView key={m} message={message} />
                        ))}
                      </div>
                    ) : run.error ? (
                      <pre className={styles.diff} style={{ color: "var(--error)" }}>
                        {run.error}
                      </pre>
                    ) : (
                      <OutputDiff
                        text={outputText(run.outputs)}
                        against={e.id === comparison.baseline_id && against === "baseline" ? null : base}
                      />
                    )}
                  </div>
                ))
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
