"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { use, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { formatCost, formatExactTime, relativeTime } from "../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { useUrlState } from "../_components/url-state";
import { Attachments } from "./attachments";
import { EvaluatorForm } from "./evaluator-form";
import { LimitEditor, SpendMeter, useSpendLimits, WorkspaceLimits } from "./spend-limits";
import styles from "./evaluators.module.css";

type Evaluator = RouterOutputs["evaluators"]["list"]["evaluators"][number];

/** What the evaluator sends and expects: its messages and its output schema's keys (a code evaluator: its source). */
function Definition({ evaluator }: { evaluator: Evaluator }) {
  const llm = evaluator.llm_evaluator;
  const code = evaluator.code_evaluator;
  if (!llm) {
    return (
      <div className={styles.section}>
        <h3>Code ({code?.language})</h3>
        <pre className="mono">{code?.code}</pre>
      </div>
    );
  }
  return (
    <div className={styles.section}>
      <h3>Prompt</h3>
      <div className={styles.messages}>
        {llm.prompt.map(([role, text], i) => (
          <div key={i} className={styles.message}>
            <span className="badge">{role}</span>
            <pre className="mono">{text}</pre>
          </div>
        ))}
      </div>
      <div className={`${styles.facts} faint`}>
        {llm.prompt_repo_handle && (
          <span>
            From prompt {llm.prompt_repo_handle}:{llm.commit_hash_or_tag}
          </span>
        )}
        <span>Model {llm.model ?? "the connection's default"}</span>
        <span>{llm.template_format} template</span>
        {Object.keys(llm.variable_mapping).length > 0 && (
          <span className="mono">
            {Object.entries(llm.variable_mapping)
              .map(([k, v]) => `{${k}} ← ${v}`)
              .join(" · ")}
          </span>
        )}
      </div>
    </div>
  );
}

export default function EvaluatorsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useUrlState();
  const selected = search.get("evaluator");
  const setSelected = (id: string | null) => setSearch({ evaluator: id });
  const list = useQuery(trpc.evaluators.list.queryOptions({ workspaceId }));
  const spend = useQuery(trpc.evaluators.spend.queryOptions({ workspaceId }));
  const remove = useMutation(
    trpc.evaluators.delete.mutationOptions({
      onSuccess: () => {
        setSelected(null);
        void queryClient.invalidateQueries({ queryKey: trpc.evaluators.pathKey() });
      },
    }),
  );
  const limits = useSpendLimits(workspaceId);
  const limitOf = (id: string) => limits.data?.find((l) => l.target === "evaluator" && l.evaluator_id === id);
  const spendOf = new Map((spend.data?.groups ?? []).map((g) => [g.evaluator_id, g]));
  const current = list.data?.evaluators.find((e) => e.id === selected);
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Evaluators</h1>
          <div className="subtitle">A model judges runs as they arrive, or the experiments of a dataset, and leaves feedback.</div>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(!creating)}>
          New evaluator
        </button>
      </div>
      {creating && (
        <EvaluatorForm
          workspaceId={workspaceId}
          onDone={(id) => {
            setCreating(false);
            setSelected(id);
          }}
        />
      )}
      <WorkspaceLimits workspaceId={workspaceId} />
      {list.isPending ? (
        <LoadingState label="Loading evaluators…" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.evaluators.length === 0 ? (
        <EmptyState title="No evaluators yet">
          Create one with a prompt and the feedback keys the model answers, then attach it to a project or a dataset. It needs a model
          connection (Settings → Model connections).
        </EmptyState>
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="evaluators">
            <thead>
              <tr>
                <th>Name</th>
                <th>Feedback keys</th>
                <th className="num">Attached</th>
                <th className="num">Runs judged (7 days)</th>
                <th className="num">Spend (7 days)</th>
                <th>Limit</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.evaluators.map((e) => {
                const s = spendOf.get(e.id);
                return (
                  <tr
                    key={e.id}
                    className={`row-link ${e.id === selected ? styles.selected : ""}`}
                    onClick={() => setSelected(e.id === selected ? null : e.id)}
                    aria-selected={e.id === selected}
                  >
                    <td>
                      <b>{e.name}</b>
                    </td>
                    <td>
                      <div className="row">
                        {e.feedback_keys.map((k) => (
                          <span key={k} className="badge badge-accent">
                            {k}
                          </span>
                        ))}
                      </div>
                    </td>
                    <td className="num">{e.run_rules.length}</td>
                    <td className="num">{s?.total_trace_count ?? 0}</td>
                    <td className="num">{formatCost(s?.total_spend_usd)}</td>
                    <td>{limitOf(e.id) ? <SpendMeter limit={limitOf(e.id)!} /> : <span className="muted">none</span>}</td>
                    <td title={formatExactTime(e.created_at)}>{relativeTime(e.created_at)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {current && (
        <div className={`card ${styles.detail}`} data-testid="evaluator-detail">
          <div className="row">
            <h2 className="grow">{current.name}</h2>
            <button
              type="button"
              className="btn btn-sm btn-danger"
              onClick={() => {
                if (confirm(`Delete ${current.name} and detach it everywhere?`)) remove.mutate({ workspaceId, evaluatorId: current.id });
              }}
            >
              Delete
            </button>
          </div>
          <Definition evaluator={current} />
          <div className="row" style={{ gap: 8, fontSize: 12 }}>
            <b>Spend limit</b>
            <LimitEditor
              key={current.id}
              workspaceId={workspaceId}
              target="evaluator"
              evaluatorId={current.id}
              current={limitOf(current.id)}
            />
          </div>
          <Attachments workspaceId={workspaceId} evaluatorId={current.id} />
        </div>
      )}
    </div>
  );
}
