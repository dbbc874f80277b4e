"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { use, useEffect, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { useUrlState } from "../_components/url-state";
import { ResultChart, chartable } from "./result-chart";
import { ResultTable } from "./result-table";
import styles from "./sql.module.css";

const EXAMPLES: [string, string][] = [
  [
    "LLM runs by model",
    "SELECT model, count(*) AS runs\nFROM runs\nWHERE start_time >= now() - interval '7 days' AND run_type = 'llm'\nGROUP BY model\nORDER BY runs DESC",
  ],
  [
    "Traces per hour",
    "SELECT date_trunc('hour', start_time) AS hour, count(*) AS traces\nFROM runs\nWHERE start_time >= now() - interval '1 day' AND is_root\nGROUP BY 1\nORDER BY 1",
  ],
  [
    "Slowest traces",
    "SELECT name, latency_ms, total_tokens, start_time, id\nFROM runs\nWHERE start_time >= now() - interval '7 days' AND is_root\nORDER BY latency_ms DESC NULLS LAST\nLIMIT 20",
  ],
  [
    "Feedback by key",
    "SELECT f.key, count(*) AS n, round(avg(f.score)::numeric, 3) AS mean\nFROM feedback f JOIN runs r ON r.id = f.run_id\nWHERE r.start_time >= now() - interval '30 days'\nGROUP BY f.key\nORDER BY n DESC",
  ],
];
const STORED = "tracelight.sql.query";

export default function SqlPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const trpc = useTRPC();
  const [search, setSearch] = useUrlState();
  const projects = useQuery(trpc.projects.list.queryOptions({ workspaceId, limit: 1000 }));
  const views = useQuery(trpc.sql.views.queryOptions({ workspaceId }));
  const [text, setText] = useState(EXAMPLES[0]![1]);
  useEffect(() => setText((current) => localStorage.getItem(STORED) ?? current), []);
  const run = useMutation(trpc.sql.query.mutationOptions());
  const named = (search.get("projects") ?? "").split(",").filter(Boolean);
  const chosen = named.length ? named : projects.data?.[0] ? [projects.data[0].id] : [];
  const setChosen = (ids: string[]) => setSearch({ projects: ids.join(",") || null });
  const nameOf = (id: string) => projects.data?.find((p) => p.id === id)?.name ?? id.slice(0, 8);
  const execute = () => {
    localStorage.setItem(STORED, text);
    run.mutate({ workspaceId, project_ids: chosen, query: text });
  };

  if (projects.isPending) return <LoadingState label="Loading projects…" />;
  if (projects.error) return <ErrorState error={projects.error} retry={() => projects.refetch()} />;
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>SQL</h1>
          <div className="subtitle">One read-only SELECT over the runs and feedback of the projects you choose.</div>
        </div>
      </div>
      {projects.data.length === 0 ? (
        <EmptyState title="No projects yet">Send traces to a project, then query them here.</EmptyState>
      ) : (
        <div className={styles.layout}>
          <div style={{ minWidth: 0 }}>
            <div className={styles.projects} data-testid="sql-projects">
              <span className="faint">Projects</span>
              {chosen.map((id) => (
                <span key={id} className="badge">
                  {nameOf(id)}
                  {chosen.length > 1 && (
                    <button
                      type="button"
                      className="btn-ghost"
                      aria-label={`Remove ${nameOf(id)}`}
                      onClick={() => setChosen(chosen.filter((c) => c !== id))}
                    >
                      ×
                    </button>
                  )}
                </span>
              ))}
              <select className="select" value="" aria-label="Add a project" onChange={(e) => setChosen([...chosen, e.target.value])}>
                <option value="">Add a project…</option>
                {projects.data
                  .filter((p) => !chosen.includes(p.id))
                  .map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
              </select>
            </div>
            <div className={`card ${styles.editorCard}`}>
              <textarea
                className={`textarea ${styles.editor}`}
                value={text}
                spellCheck={false}
                aria-label="SQL query"
                data-testid="sql-editor"
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
                    e.preventDefault();
                    execute();
                  }
                }}
              />
              <div className={styles.toolbar}>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={execute}
                  disabled={run.isPending || !text.trim()}
                  data-testid="sql-run"
                >
                  {run.isPending ? "Running…" : "Run"}
                </button>
                <span className="faint" style={{ fontSize: 12 }}>
                  ⌘/Ctrl + Enter
                </span>
                <span className="grow" />
                {EXAMPLES.map(([label, example]) => (
                  <button key={label} type="button" className="btn btn-ghost btn-sm" onClick={() => setText(example)}>
                    {label}
                  </button>
                ))}
              </div>
            </div>
            {run.error && (
              <div className={styles.error} role="alert" data-testid="sql-error">
                {run.error.message}
              </div>
            )}
            {run.data && (
              <>
                <div className={`${styles.meta} faint`} data-testid="sql-meta">
                  <span>
                    {run.data.row_count.toLocaleString()} {run.data.row_count === 1 ? "row" : "rows"}
                  </span>
                  <span>{run.data.execution_time_ms} ms</span>
                  {run.data.is_truncated && (
                    <span className={styles.warning}>
                      Truncated: {run.data.truncation_reason === "size_limit" ? "more than about 10 MB" : "more rows than the limit"}
                    </span>
                  )}
                  {run.data.warnings.map((w) => (
                    <span key={w} className={styles.warning}>
                      {w}
                    </span>
                  ))}
                </div>
                {chartable(run.data) && <ResultChart result={run.data} />}
                {run.data.columns.length > 0 && <ResultTable result={run.data} />}
              </>
            )}
          </div>
          <aside className={`card ${styles.reference}`} aria-label="Views">
            {views.data?.map((view) => (
              <div key={view.name}>
                <h3 className="mono">{view.name}</h3>
                {view.columns.map((column) => (
                  <div key={column.name} className={styles.column}>
                    <span className="mono">{column.name}</span>
                    <span className="faint">{column.type}</span>
                  </div>
                ))}
              </div>
            ))}
            <p className="faint" style={{ marginTop: 10 }}>
              Queries over runs need a start_time lower bound. At most 1,000 rows come back.
            </p>
          </aside>
        </div>
      )}
    </div>
  );
}
