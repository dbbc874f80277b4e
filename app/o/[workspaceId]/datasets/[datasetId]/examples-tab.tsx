"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { JsonView } from "../../_components/conversation/json-view";
import { formatCount, formatExactTime, relativeTime, shortId } from "../../_components/format";
import { JsonCell } from "../../_components/json-cell";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import { download } from "../../_components/download";
import styles from "../datasets.module.css";
import { ExampleEditor } from "./example-editor";
import { examplesCsv, examplesJsonl } from "./export";

type ExampleView = RouterOutputs["datasets"]["examples"][number];

const PAGE = 50;

const splitsOf = (e: ExampleView) => {
  const s = e.metadata?.dataset_split;
  return Array.isArray(s) ? s.map(String) : typeof s === "string" ? [s] : [];
};

function ExamplePanel({ example, onClose, onEdit }: { example: ExampleView; onClose: () => void; onEdit?: () => void }) {
  const { dataset_split: _split, ...metadata } = example.metadata ?? {};
  return (
    <aside className={`card ${styles.panel}`} aria-label="Example" data-testid="example-detail">
      <div className="row">
        <h2>
          Example <span className="mono faint">{shortId(example.id)}</span>
        </h2>
        <span className="grow" />
        {onEdit && (
          <button type="button" className="btn btn-sm" onClick={onEdit}>
            Edit
          </button>
        )}
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

/** Every example of the view, fetched a thousand at a time, for export. */
async function allExamples(fetchPage: (offset: number) => Promise<ExampleView[]>): Promise<ExampleView[]> {
  const out: ExampleView[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await fetchPage(offset);
    out.push(...page);
    if (page.length < 1000) return out;
  }
}

type Panel = { kind: "view"; example: ExampleView } | { kind: "edit"; example: ExampleView | null } | null;

/**
 * The dataset's examples, a page at a time, with one opened (or edited) beside the table: filtered
 * by split, at any tagged version (read-only), exported as JSON Lines or CSV.
 */
export function ExamplesTab({ workspaceId, datasetId, total }: { workspaceId: string; datasetId: string; total: number }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [panel, setPanel] = useState<Panel>(null);
  const [split, setSplit] = useState("");
  const [asOf, setAsOf] = useState("");
  const [tag, setTag] = useState("");
  const splits = useQuery(trpc.datasets.splits.queryOptions({ workspaceId, datasetId }));
  const versions = useQuery(trpc.datasets.versions.queryOptions({ workspaceId, datasetId }));
  const view = { workspaceId, datasetId, split: split || undefined, asOf: asOf || undefined };
  const examples = useQuery({
    ...trpc.datasets.examples.queryOptions({ ...view, offset, limit: PAGE }),
    placeholderData: (p) => p,
  });
  const tagVersion = useMutation(
    trpc.datasets.tagVersion.mutationOptions({
      onSuccess: () => {
        setTag("");
        void queryClient.invalidateQueries({ queryKey: trpc.datasets.versions.queryKey({ workspaceId, datasetId }) });
      },
    }),
  );
  const latest = versions.data?.[0]?.as_of;
  const readOnly = Boolean(asOf);
  const selected = panel?.example ?? null;
  const exportAs = async (format: "jsonl" | "csv") => {
    const rows = await allExamples((o) => client.datasets.examples.query({ ...view, offset: o, limit: 1000 }));
    if (format === "jsonl") download(`examples-${datasetId.slice(0, 8)}.jsonl`, "application/jsonl", examplesJsonl(rows));
    else download(`examples-${datasetId.slice(0, 8)}.csv`, "text/csv", examplesCsv(rows));
  };
  const toolbar = (
    <div className={styles.toolbar} data-testid="examples-toolbar">
      <label className="row" style={{ gap: 6 }}>
        <span className="muted">Split</span>
        <select className="select" value={split} onChange={(e) => (setSplit(e.target.value), setOffset(0))}>
          <option value="">All</option>
          {(splits.data ?? []).map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label className="row" style={{ gap: 6 }}>
        <span className="muted">Version</span>
        <select
          className="select"
          value={asOf}
          onChange={(e) => (setAsOf(e.target.value), setOffset(0), setPanel(null))}
          aria-label="Version"
        >
          <option value="">Latest</option>
          {(versions.data ?? []).slice(1).map((v) => (
            <option key={v.as_of} value={v.as_of ?? ""}>
              {formatExactTime(v.as_of)}
              {v.tags.length ? ` · ${v.tags.join(", ")}` : ""}
            </option>
          ))}
        </select>
      </label>
      {latest && (
        <form
          className="row"
          style={{ gap: 6 }}
          onSubmit={(e) => {
            e.preventDefault();
            if (tag.trim()) tagVersion.mutate({ workspaceId, datasetId, asOf: asOf || latest, tag });
          }}
        >
          <input
            className="input"
            style={{ width: 120 }}
            placeholder="Tag, e.g. v1"
            value={tag}
            onChange={(e) => setTag(e.target.value)}
            aria-label="Tag"
          />
          <button type="submit" className="btn btn-sm" disabled={!tag.trim() || tagVersion.isPending}>
            Tag {asOf ? "this" : "latest"} version
          </button>
          {tagVersion.error && <span className="err-text">{tagVersion.error.message}</span>}
        </form>
      )}
      <span className="grow" />
      <button type="button" className="btn btn-sm" onClick={() => void exportAs("jsonl")}>
        Export JSONL
      </button>
      <button type="button" className="btn btn-sm" onClick={() => void exportAs("csv")}>
        Export CSV
      </button>
      {!readOnly && (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => setPanel({ kind: "edit", example: null })}>
          Add example
        </button>
      )}
    </div>
  );
  const side =
    panel?.kind === "edit" ? (
      <aside className={`card ${styles.panel}`} aria-label={panel.example ? "Edit example" : "New example"}>
        <h2>{panel.example ? "Edit example" : "New example"}</h2>
        <ExampleEditor
          workspaceId={workspaceId}
          datasetId={datasetId}
          example={panel.example}
          splits={splits.data ?? []}
          onDone={(saved) => setPanel(saved ? { kind: "view", example: saved } : null)}
        />
      </aside>
    ) : panel ? (
      <ExamplePanel
        example={panel.example}
        onClose={() => setPanel(null)}
        onEdit={readOnly ? undefined : () => setPanel({ kind: "edit", example: panel.example })}
      />
    ) : null;
  const body = examples.isPending ? (
    <LoadingState label="Loading examples…" />
  ) : examples.error ? (
    <ErrorState error={examples.error} retry={() => examples.refetch()} />
  ) : examples.data.length === 0 && offset === 0 ? (
    <EmptyState title={split || asOf ? "No examples in this view" : "No examples yet"}>
      Add one here, add runs from a run&apos;s detail (“Add to dataset”), or upload examples with the SDK.
    </EmptyState>
  ) : (
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
            <tr
              key={e.id}
              className={`row-link ${selected?.id === e.id ? styles.selected : ""}`}
              onClick={() => setPanel({ kind: "view", example: e })}
            >
              <td>
                <JsonCell value={e.inputs} />
              </td>
              <td>
                <JsonCell value={e.outputs} />
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
          {total && !split && !asOf ? ` of ${formatCount(total)}` : ""}
        </span>
        <button type="button" className="btn btn-sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <button type="button" className="btn btn-sm" disabled={examples.data.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
          Next
        </button>
      </div>
    </div>
  );
  return (
    <div className="col" style={{ gap: 10 }}>
      {toolbar}
      <div className={styles.split}>
        <div style={{ flex: 1, minWidth: 0 }}>{body}</div>
        {side}
      </div>
    </div>
  );
}
