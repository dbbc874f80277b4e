"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { ChartSection, Metric } from "@/server/charts/schema";
import type { Chart } from "@/server/charts/series";
import { EmptyState, ErrorState, LoadingState } from "../ui";
import { METRIC_LABELS, MetricChart } from "./metric-chart";
import { RangePicker, useRange } from "./range";
import styles from "./charts.module.css";

type SetChart = ChartSection["charts"][number];
type RenderedSection = Omit<ChartSection, "charts"> & { charts: (SetChart & { data: Chart })[] };
const METRICS = Object.keys(METRIC_LABELS) as Metric[];
const GROUPS = ["", "model", "name", "tag", "run_type", "provider", "status"] as const;

function AddChartForm({ onAdd, busy }: { onAdd: (chart: SetChart) => void; busy: boolean }) {
  const [title, setTitle] = useState("");
  const [metrics, setMetrics] = useState<Metric[]>(["run_count"]);
  const [group, setGroup] = useState<(typeof GROUPS)[number]>("");
  const [filter, setFilter] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim() || metrics.length === 0) return;
    onAdd({
      title: title.trim(),
      metrics,
      max_groups: 10,
      group_by: group ? { attribute: group } : null,
      filter: filter.trim() || null,
    });
    setTitle("");
    setFilter("");
  };
  return (
    <form className={styles.addChart} onSubmit={submit} aria-label="Add a chart">
      <input
        className="input"
        placeholder="Chart title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        aria-label="Chart title"
        required
      />
      <select className="select" value={group} onChange={(e) => setGroup(e.target.value as typeof group)} aria-label="Group by">
        {GROUPS.map((g) => (
          <option key={g} value={g}>
            {g ? `by ${g.replace("_", " ")}` : "not grouped"}
          </option>
        ))}
      </select>
      <input
        className="input grow"
        placeholder='Filter, e.g. eq(run_type, "llm")'
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        aria-label="Filter"
      />
      <div className={styles.metricPicks}>
        {METRICS.map((m) => (
          <label key={m} className={styles.metricPick}>
            <input
              type="checkbox"
              checked={metrics.includes(m)}
              onChange={(e) => setMetrics(e.target.checked ? [...metrics, m] : metrics.filter((x) => x !== m))}
            />
            {METRIC_LABELS[m] ?? m}
          </label>
        ))}
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy || !title.trim() || metrics.length === 0}>
        Add chart
      </button>
    </form>
  );
}

function SetView({ workspaceId, id, onDeleted }: { workspaceId: string; id: string; onDeleted: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { range, setRange, window } = useRange("7d");
  const [editing, setEditing] = useState(false);
  const rendered = useQuery({ ...trpc.charts.sets.render.queryOptions({ workspaceId, id, range: window }), placeholderData: (p) => p });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.charts.sets.pathKey() });
  const update = useMutation(trpc.charts.sets.update.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(
    trpc.charts.sets.delete.mutationOptions({
      onSuccess: () => {
        invalidate();
        onDeleted();
      },
    }),
  );
  if (rendered.isPending) return <LoadingState label="Drawing charts…" />;
  if (rendered.error) return <ErrorState error={rendered.error} retry={() => rendered.refetch()} />;
  const set = rendered.data;
  const sections = set.sections as RenderedSection[];
  const saveSections = (next: ChartSection[]) => update.mutate({ workspaceId, id, change: { sections: next } });
  const strip = (s: RenderedSection): ChartSection => ({ ...s, charts: s.charts.map(({ data: _data, ...c }) => c) });
  const addChart = (chart: SetChart) => {
    const base = sections.map(strip);
    if (base.length === 0) base.push({ title: "Charts", charts: [] });
    base[0] = { ...base[0], charts: [...base[0].charts, chart] };
    saveSections(base);
  };
  const removeChart = (sectionIndex: number, chartId: string | null | undefined) =>
    saveSections(sections.map(strip).map((s, i) => (i === sectionIndex ? { ...s, charts: s.charts.filter((c) => c.id !== chartId) } : s)));
  const chartCount = sections.reduce((n, s) => n + s.charts.length, 0);
  return (
    <div className="col" style={{ gap: 12 }} data-testid="chart-set">
      <div className={styles.toolbar}>
        <h2>{set.name}</h2>
        {set.description && <span className="muted">{set.description}</span>}
        <span className="grow" />
        <RangePicker value={range} onChange={setRange} />
        <button type="button" className="btn btn-sm" aria-pressed={editing} onClick={() => setEditing(!editing)}>
          {editing ? "Done" : "Edit"}
        </button>
        {editing && (
          <button
            type="button"
            className="btn btn-sm btn-danger"
            disabled={remove.isPending}
            onClick={() => {
              if (confirm(`Delete the chart set "${set.name}"?`)) remove.mutate({ workspaceId, id });
            }}
          >
            Delete set
          </button>
        )}
      </div>
      {(update.error || remove.error) && (
        <div className="err-text" role="alert">
          {(update.error ?? remove.error)!.message}
        </div>
      )}
      {editing && <AddChartForm onAdd={addChart} busy={update.isPending} />}
      {chartCount === 0 ? (
        <EmptyState title="No charts in this set yet">Use Edit to add charts: pick metrics, a grouping and a filter.</EmptyState>
      ) : (
        sections.map((section, si) => (
          <section key={section.id ?? si} className="col" style={{ gap: 8 }}>
            {sections.length > 1 && <h3>{section.title}</h3>}
            <div className={styles.grid}>
              {section.charts.map((chart) => (
                <div key={chart.id} className={styles.setChart}>
                  <MetricChart
                    title={chart.title}
                    chart={chart.data}
                    metrics={chart.metrics}
                    kind={chart.metrics.every((m) => /count|cost|tokens/.test(m)) ? "bar" : "line"}
                    stacked={!!chart.group_by || chart.metrics.every((m) => m.endsWith("_tokens"))}
                    action={
                      editing ? (
                        <button type="button" className="btn btn-sm btn-ghost btn-danger" onClick={() => removeChart(si, chart.id)}>
                          Remove
                        </button>
                      ) : undefined
                    }
                  />
                </div>
              ))}
            </div>
          </section>
        ))
      )}
    </div>
  );
}

/** Saved chart sets: the list, one set drawn over a range, and editing (add/remove charts, delete). */
export function ChartSets({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.charts.sets.list.queryOptions({ workspaceId }));
  const [selected, setSelected] = useState<string | null>(null);
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.charts.sets.create.mutationOptions({
      onSuccess: (set) => {
        setName("");
        setSelected(set.id);
        queryClient.invalidateQueries({ queryKey: trpc.charts.sets.list.pathKey() });
      },
    }),
  );
  const current = selected ?? list.data?.[0]?.id ?? null;
  return (
    <div className={styles.sets}>
      <aside className={styles.setList}>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create.mutate({ workspaceId, set: { name: name.trim(), sections: [] } });
          }}
        >
          <input
            className="input grow"
            placeholder="New chart set"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-label="New chart set name"
          />
          <button type="submit" className="btn btn-sm" disabled={!name.trim() || create.isPending}>
            Create
          </button>
        </form>
        {create.error && (
          <div className="err-text" role="alert">
            {create.error.message}
          </div>
        )}
        {list.isPending ? (
          <LoadingState />
        ) : list.error ? (
          <ErrorState error={list.error} />
        ) : list.data.length === 0 ? (
          <p className="muted" style={{ padding: "8px 4px" }}>
            No saved chart sets.
          </p>
        ) : (
          <ul>
            {list.data.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className="nav-link"
                  aria-current={s.id === current ? "page" : undefined}
                  onClick={() => setSelected(s.id)}
                  style={{ width: "100%", border: 0, background: s.id === current ? undefined : "transparent", cursor: "pointer" }}
                >
                  <span className="truncate">{s.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </aside>
      <div className="grow">
        {current ? (
          <SetView key={current} workspaceId={workspaceId} id={current} onDeleted={() => setSelected(null)} />
        ) : (
          !list.isPending && (
            <EmptyState title="Save a set of charts">Create a chart set to keep the charts you look at together.</EmptyState>
          )
        )}
      </div>
    </div>
  );
}
