import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { formatPercent } from "../../../_components/format";
import styles from "./compare.module.css";

type Summary = RouterOutputs["experiments"]["pairwise"];
const KEY = "preference";

/** Win rates of the two experiments in a pairwise comparison. */
export function WinRates({ summary }: { summary: Summary }) {
  const rates = summary.preferences[KEY] ?? {};
  return (
    <div className="row" style={{ gap: 16, flexWrap: "wrap" }} data-testid="win-rates">
      <span className="stat-label">{summary.name ?? "Pairwise review"}</span>
      {summary.experiments_info.map((e) => {
        const p = rates[e.id];
        return (
          <span key={e.id} className="row" style={{ gap: 6 }}>
            <strong className="truncate" style={{ maxWidth: 220 }}>
              {e.name}
            </strong>
            <span className={styles.up}>{p ? formatPercent(p.win_rate) : "–"} wins</span>
            <span className="faint" title="wins–ties–losses">
              {p ? `${p.wins}–${p.ties}–${p.losses}` : "0–0–0"}
            </span>
          </span>
        );
      })}
    </div>
  );
}

/**
 * The reviewer's pick for the selected example: which output is better, or a tie. Keys 1 and 2 pick
 * the experiment, 0 a tie; then the next example is selected.
 */
export function PreferencePicker({
  workspaceId,
  comparativeId,
  exampleId,
  experiments,
  onPicked,
}: {
  workspaceId: string;
  comparativeId: string;
  exampleId: string;
  experiments: { id: string; name: string }[];
  onPicked: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const summary = useQuery(trpc.experiments.pairwise.queryOptions({ workspaceId, comparativeId }));
  const prefer = useMutation(
    trpc.experiments.prefer.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.experiments.pairwise.queryKey({ workspaceId, comparativeId }), data);
        onPicked();
      },
    }),
  );
  const pick = summary.data?.picks[exampleId]?.[KEY];
  const choose = (preferred: string | null) => prefer.mutate({ workspaceId, comparativeId, exampleId, preferred });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.target as HTMLElement | null)?.closest("input, textarea, select, [contenteditable]")) return;
      const index = ["1", "2"].indexOf(event.key);
      if (index >= 0 && experiments[index]) choose(experiments[index].id);
      else if (event.key === "0") choose(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  return (
    <div className="row" style={{ gap: 8, flexWrap: "wrap" }} data-testid="preference-picker">
      <span className="muted">Which output is better?</span>
      {experiments.map((e, i) => (
        <button
          key={e.id}
          type="button"
          className={`btn btn-sm ${pick === e.id ? "btn-primary" : ""}`}
          aria-pressed={pick === e.id}
          disabled={prefer.isPending}
          onClick={() => choose(e.id)}
        >
          <span className="kbd">{i + 1}</span> {e.name}
        </button>
      ))}
      <button
        type="button"
        className={`btn btn-sm ${pick === null ? "btn-primary" : ""}`}
        aria-pressed={pick === null}
        disabled={prefer.isPending}
        onClick={() => choose(null)}
      >
        <span className="kbd">0</span> Tie
      </button>
      {prefer.error && <span className="err-text">{prefer.error.message}</span>}
    </div>
  );
}
