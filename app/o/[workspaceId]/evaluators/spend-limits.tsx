"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import styles from "./evaluators.module.css";

type Limit = RouterOutputs["evaluators"]["limits"][number];
type Target = Limit["target"];
const WINDOW = { daily: "day", weekly: "week", monthly: "month" } as const;
/** Cents, or four digits for a spend under a cent that is not nothing ($0.00, not $0.0000). */
const usd = (n: number) => `$${n > 0 && n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;

/** The workspace's spend limits, read once for the page. */
export function useSpendLimits(workspaceId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.evaluators.limits.queryOptions({ workspaceId }));
}

/** Spend in the limit's current window against the limit, as a bar (red once it is reached). */
export function SpendMeter({ limit }: { limit: Limit }) {
  const pct = Math.min(100, limit.utilization_pct);
  return (
    <span className={styles.meter} title={`${limit.utilization_pct.toFixed(1)}% of the ${limit.window} limit`} data-testid="spend-meter">
      <span className={styles.meterBar}>
        <span
          className={styles.meterFill}
          style={{ width: `${pct}%`, background: pct >= 100 ? "var(--error)" : pct >= 80 ? "var(--warn)" : "var(--ok)" }}
        />
      </span>
      <span>
        {usd(limit.spend_usd)} of {usd(limit.limit_usd)} / {WINDOW[limit.window]}
      </span>
    </span>
  );
}

/** Set or remove one limit: the workspace's evaluators, its playground, or one evaluator. */
export function LimitEditor({
  workspaceId,
  target,
  evaluatorId,
  current,
}: {
  workspaceId: string;
  target: Target;
  evaluatorId?: string;
  current?: Limit;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(current ? String(current.limit_usd) : "");
  const [window, setWindow] = useState<Limit["window"]>(current?.window ?? "monthly");
  const save = useMutation(
    trpc.evaluators.setLimit.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.evaluators.limits.pathKey() }),
    }),
  );
  const submit = (e: FormEvent, limit: number | null) => {
    e.preventDefault();
    save.mutate({ workspaceId, limit: { target, evaluator_id: evaluatorId ?? null, limit_usd: limit, window } });
  };
  return (
    <form className="row" style={{ gap: 6 }} onSubmit={(e) => submit(e, Number(amount))} aria-label={`Spend limit (${target})`}>
      <span>$</span>
      <input
        className="input"
        type="number"
        min={0}
        step="any"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        required
        style={{ width: 90 }}
        aria-label="Limit in dollars"
      />
      <select className="select" value={window} onChange={(e) => setWindow(e.target.value as Limit["window"])} aria-label="Per">
        <option value="daily">per day</option>
        <option value="weekly">per week</option>
        <option value="monthly">per month</option>
      </select>
      <button className="btn btn-sm" type="submit" disabled={save.isPending}>
        {current ? "Change" : "Set limit"}
      </button>
      {current && (
        <button className="btn btn-sm" type="button" onClick={(e) => submit(e, null)}>
          Remove
        </button>
      )}
      {save.error && <span className="err-text">{save.error.message}</span>}
    </form>
  );
}

/** The workspace's evaluator and playground limits, with spend against them (admins change them). */
export function WorkspaceLimits({ workspaceId }: { workspaceId: string }) {
  const limits = useSpendLimits(workspaceId);
  const [editing, setEditing] = useState<Target | null>(null);
  const of = (target: Target) => limits.data?.find((l) => l.target === target);
  return (
    <div className={`card ${styles.limits}`} data-testid="spend-limits">
      {(["evaluators", "playground"] as const).map((target) => {
        const limit = of(target);
        return (
          <div key={target} className={styles.limit}>
            <div className="row" style={{ justifyContent: "space-between" }}>
              <b>{target === "evaluators" ? "All evaluators" : "Playground"}</b>
              <button className="btn btn-sm btn-ghost" type="button" onClick={() => setEditing(editing === target ? null : target)}>
                {editing === target ? "Done" : "Edit limit"}
              </button>
            </div>
            {limit ? <SpendMeter limit={limit} /> : <span className="muted">No spend limit: model calls are not capped.</span>}
            {editing === target && <LimitEditor workspaceId={workspaceId} target={target} current={limit} />}
          </div>
        );
      })}
    </div>
  );
}
