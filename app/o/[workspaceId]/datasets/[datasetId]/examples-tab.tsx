"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { JsonView } from "../../_components/conversation/json-view";
import { formatCount, formatExactTime, relativeTime, shortId } from "../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import styles from "../datasets.module.css";

type ExampleView = RouterOutputs["datasets"]["examples"][number];

const PAGE = 50;

function preview(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

const splitsOf = (e: ExampleView) => {
  const s = e.metadata?.dataset_split;
  return Array.isArray(s) ? s.map(String) : typeof s === "string" ? [s] : [];
};

function ExamplePanel({ example, onClose }: { example: ExampleView; onClose: () => void }) {
  const { dataset_split: _split, ...metadata } = example.metadata ?? {};
  return (
    <aside className={`card ${styles.panel}`} aria-label="Example" data-testid="example-detail">
      <div className="row">
        <h2>
          Example <span className="mono faint">{shortId(example.id)}</span>
        </h2>
        <span className="grow" />
        <button type="button" className="btn btn-sm btn-ghost" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      <div className="row muted" style={{ flexWrap: "wrap" }}>
        {splitsOf(example).map((s) => (
          <span key={s} className="badge">
            {s}
          </span>
        ))}
        <span title={formatExactTime(example.created_at)}>created {relativeTime(example.created_at)}</span>
        {example.source_run_id && (
          <span>
            from run <code>{shortId(example.source_run_id)}</code>
          </span>
        )}
      </div>
      <JsonView value={example.inputs} title="Inputs" />
      <JsonView value={example.outputs ?? null} title="Reference outputs" />
      {Object.keys(metadata).length > 0 && <JsonView value={metadata} title="Metadata" />}
    </aside>
  );
}

/** The dataset's current examples, a page at a time, with one opened beside the table. */
export function ExamplesTab({ workspaceId, datasetId, total }: { workspaceId: string; datasetId: string; total: number }) {
  const trpc = useTRPC();
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<ExampleView | null>(null);
  const examples = useQuery({
    ...trpc.datasets.examples.queryOptions({ workspaceId, datasetId, offset, limit: PAGE }),
    placeholderData: (p) => p,
  });
  return examples.isPending ? (
    <LoadingState label="Loading examples…" />
  ) : examples.error ? (
    <ErrorState error={examples.error} retry={() => examples.refetch()} />
  ) : examples.data.length === 0 && offset === 0 ? (
    <EmptyState title="No examples yet">Add runs from a run&apos;s detail (“Add to dataset”), or upload examples with the SDK.</EmptyState>
  ) : (
    <div className={styles.split}>
      <div className={`card ${styles.tableWrap}`}>
        <table className={`table ${styles.examples}`} data-testid="examples">
          <colgroup>
            <col />
            <col />
            <col style={{ width: 110 }} />
            <col style={{ width: 110 }} />
          </colgroup>
          <thead>
            <tr>
              <th>Inputs</th>
              <th>Reference outputs</th>
              <th>Split</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {examples.data.map((e) => (
              <tr key={e.id} className={`row-link ${selected?.id === e.id ? styles.selected : ""}`} onClick={() => setSelected(e)}>
                <td>
                  <div className={styles.preview}>{preview(e.inputs)}</div>
                </td>
                <td>
                  <div className={styles.preview}>{preview(e.outputs)}</div>
                </td>
                <td>
                  {splitsOf(e).map((s) => (
                    <span key={s} className="badge">
                      {s}
                    </span>
                  ))}
                </td>
                <td title={formatExactTime(e.created_at)}>{relativeTime(e.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className={styles.pager}>
          <span className="muted">
            {offset + 1}–{offset + examples.data.length}
            {total ? ` of ${formatCount(total)}` : ""}
          </span>
          <button type="button" className="btn btn-sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <button type="button" className="btn btn-sm" disabled={examples.data.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </div>
      </div>
      {selected && <ExamplePanel example={selected} onClose={() => setSelected(null)} />}
    </div>
  );
}
