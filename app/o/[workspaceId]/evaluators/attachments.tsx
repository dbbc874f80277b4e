"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { formatExactTime, relativeTime } from "../_components/format";
import { ProgressBar } from "../_components/progress-bar";
import styles from "./evaluators.module.css";

type Rule = RouterOutputs["evaluators"]["rules"][number];

const DAY_MS = 86_400_000;

/** Attach the evaluator to a project's new runs or a dataset's new experiments, with a filter and a sampling rate. */
function AttachForm({ workspaceId, evaluatorId, onDone }: { workspaceId: string; evaluatorId: string; onDone: () => void }) {
  const trpc = useTRPC();
  const projects = useQuery(trpc.projects.list.queryOptions({ workspaceId }));
  const datasets = useQuery(trpc.datasets.list.queryOptions({ workspaceId }));
  const [target, setTarget] = useState("");
  const [filter, setFilter] = useState("");
  const [percent, setPercent] = useState("100");
  const attach = useMutation(trpc.evaluators.attach.mutationOptions({ onSuccess: onDone }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const [kind, id] = target.split(":");
    const label = kind === "project" ? projects.data?.find((p) => p.id === id)?.name : datasets.data?.find((d) => d.id === id)?.name;
    attach.mutate({
      workspaceId,
      evaluatorId,
      displayName: label ?? "evaluator",
      target: kind === "project" ? { session_id: id } : { dataset_id: id },
      filter: filter.trim() || null,
      samplingRate: Math.min(100, Math.max(0, Number(percent))) / 100,
    });
  };
  return (
    <form className={styles.attach} onSubmit={submit} aria-label="Attach evaluator">
      <select className="select" value={target} onChange={(e) => setTarget(e.target.value)} required aria-label="Attach to">
        <option value="">Attach to…</option>
        <optgroup label="Projects: each new run">
          {(projects.data ?? []).map((p) => (
            <option key={p.id} value={`project:${p.id}`}>
              {p.name}
            </option>
          ))}
        </optgroup>
        <optgroup label="Datasets: each new experiment">
          {(datasets.data ?? []).map((d) => (
            <option key={d.id} value={`dataset:${d.id}`}>
              {d.name}
            </option>
          ))}
        </optgroup>
      </select>
      <input
        className="input mono grow"
        placeholder='Filter (optional), e.g. eq(run_type, "llm")'
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        aria-label="Filter"
      />
      <label className="row">
        Sample
        <input
          className="input"
          style={{ width: 70 }}
          type="number"
          min={0}
          max={100}
          value={percent}
          onChange={(e) => setPercent(e.target.value)}
          aria-label="Sampling percent"
        />
        %
      </label>
      <button type="submit" className="btn btn-primary btn-sm" disabled={attach.isPending || !target}>
        Attach
      </button>
      {attach.error && (
        <span className="err-text" role="alert">
          {attach.error.message}
        </span>
      )}
    </form>
  );
}

/** One attachment: where, filter, sampling, on/off, its newest backfill's progress, and a backfill over the last days. */
function RuleRow({
  workspaceId,
  rule,
  targetName,
  onChange,
}: {
  workspaceId: string;
  rule: Rule;
  targetName: string;
  onChange: () => void;
}) {
  const trpc = useTRPC();
  const [days, setDays] = useState("7");
  const [showLogs, setShowLogs] = useState(false);
  const running = rule.backfill_status === "running";
  const backfills = useQuery({
    ...trpc.evaluators.backfills.queryOptions({ workspaceId, ruleId: rule.id }),
    enabled: rule.backfill_id !== null,
    refetchInterval: running ? 1000 : false,
  });
  const logs = useQuery({ ...trpc.evaluators.logs.queryOptions({ workspaceId, ruleId: rule.id }), enabled: showLogs });
  const setEnabled = useMutation(trpc.evaluators.setEnabled.mutationOptions({ onSuccess: onChange }));
  const detach = useMutation(trpc.evaluators.detach.mutationOptions({ onSuccess: onChange }));
  const backfill = useMutation(trpc.evaluators.backfill.mutationOptions({ onSuccess: onChange }));
  const latest = backfills.data?.[0];
  // A backfill that finished while the page watched it: the rule's own fields catch up.
  useEffect(() => {
    if (running && latest?.status === "completed") onChange();
  }, [running, latest?.status, onChange]);
  return (
    <>
      <tr data-testid="attachment">
        <td>
          <span className="badge">{rule.session_id ? "project" : "dataset"}</span>{" "}
          <Link href={rule.session_id ? `/o/${workspaceId}/projects/${rule.session_id}` : `/o/${workspaceId}/datasets/${rule.dataset_id}`}>
            {targetName}
          </Link>
        </td>
        <td className="mono muted">{rule.filter ?? "every run"}</td>
        <td className="num">{Math.round(rule.sampling_rate * 100)} %</td>
        <td>
          <label className="row">
            <input
              type="checkbox"
              checked={rule.is_enabled}
              onChange={(e) => setEnabled.mutate({ workspaceId, ruleId: rule.id, enabled: e.target.checked })}
              aria-label={`Enabled on ${targetName}`}
            />
            {rule.is_enabled ? "On" : "Off"}
          </label>
        </td>
        <td>
          {latest ? (
            <div title={`Runs since ${formatExactTime(latest.start_time)}`}>
              <ProgressBar done={latest.runs_evaluated} total={latest.status === "completed" ? latest.runs_evaluated : latest.runs_total} />
              <span className="faint">
                {latest.status === "completed" ? `done ${relativeTime(latest.completed_at!)}` : "running…"} · since{" "}
                {relativeTime(latest.start_time)}
              </span>
            </div>
          ) : (
            <span className="faint">—</span>
          )}
        </td>
        <td>
          <div className="row">
            <span className="faint">Last</span>
            <input
              className="input"
              style={{ width: 56 }}
              type="number"
              min={1}
              max={365}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              aria-label="Backfill days"
            />
            <span className="faint">days</span>
            <button
              type="button"
              className="btn btn-sm"
              disabled={backfill.isPending || running}
              onClick={() => backfill.mutate({ workspaceId, ruleId: rule.id, since: new Date(Date.now() - Number(days) * DAY_MS) })}
            >
              Backfill
            </button>
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setShowLogs(!showLogs)} aria-expanded={showLogs}>
              Logs
            </button>
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => detach.mutate({ workspaceId, ruleId: rule.id })}>
              Detach
            </button>
          </div>
          {backfill.error && <span className="err-text">{backfill.error.message}</span>}
        </td>
      </tr>
      {showLogs && (
        <tr>
          <td colSpan={6} className={styles.logs}>
            {(logs.data ?? []).length === 0 ? (
              <span className="faint">No evaluations yet.</span>
            ) : (
              (logs.data ?? []).map((l) => (
                <div key={l.id} className={styles.logLine}>
                  <span
                    className={`badge ${l.outcome === "success" ? "badge-ok" : l.outcome === "skipped" ? "badge-warn" : "badge-error"}`}
                  >
                    {l.outcome}
                  </span>
                  <span className="faint" title={formatExactTime(l.created_at!)}>
                    {relativeTime(l.created_at!)}
                  </span>
                  <span className="mono">{l.detail}</span>
                </div>
              ))
            )}
          </td>
        </tr>
      )}
    </>
  );
}

/** Where an evaluator runs: its rules, each with a backfill, and a form to attach it somewhere new. */
export function Attachments({ workspaceId, evaluatorId }: { workspaceId: string; evaluatorId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rules = useQuery(trpc.evaluators.rules.queryOptions({ workspaceId, evaluatorId }));
  const projects = useQuery(trpc.projects.list.queryOptions({ workspaceId }));
  const datasets = useQuery(trpc.datasets.list.queryOptions({ workspaceId }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.evaluators.pathKey() });
  const nameOf = (rule: Rule) =>
    (rule.session_id
      ? projects.data?.find((p) => p.id === rule.session_id)?.name
      : datasets.data?.find((d) => d.id === rule.dataset_id)?.name) ?? rule.display_name;
  return (
    <div className={styles.section}>
      <h3>Attached to</h3>
      {(rules.data ?? []).length > 0 && (
        <table className="table" data-testid="attachments">
          <thead>
            <tr>
              <th>Where</th>
              <th>Filter</th>
              <th className="num">Sampled</th>
              <th>State</th>
              <th>Backfill</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(rules.data ?? []).map((r) => (
              <RuleRow key={r.id} workspaceId={workspaceId} rule={r} targetName={nameOf(r)} onChange={refresh} />
            ))}
          </tbody>
        </table>
      )}
      <AttachForm workspaceId={workspaceId} evaluatorId={evaluatorId} onDone={refresh} />
    </div>
  );
}
