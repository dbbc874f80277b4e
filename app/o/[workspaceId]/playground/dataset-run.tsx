"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { runExperiment, type ExperimentDone } from "./stream";
import { requestOf, type Variant } from "./variant";
import styles from "./playground.module.css";

/**
 * "Run over dataset": a variant run on every example (its inputs fill the messages' `{variables}`)
 * as an experiment on the dataset, with progress, then a link to the experiment's comparison view.
 */
export function DatasetRun({
  workspaceId,
  userId,
  variants,
  onClose,
}: {
  workspaceId: string;
  userId: string;
  variants: Variant[];
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const datasets = useQuery(trpc.datasets.list.queryOptions({ workspaceId }));
  const [datasetId, setDatasetId] = useState("");
  const [which, setWhich] = useState(0);
  const [name, setName] = useState("");
  const [exact, setExact] = useState(true);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<ExperimentDone | { error: string } | null>(null);
  const chosen = datasetId || datasets.data?.[0]?.id || "";
  const running = progress !== null && result === null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const variant = variants[Math.min(which, variants.length - 1)];
    const request = requestOf(variant);
    if (typeof request === "string") return setResult({ error: request });
    setResult(null);
    setProgress({ done: 0, total: 0 });
    setResult(
      await runExperiment(
        { workspaceId, userId },
        {
          connection_id: variant.connectionId,
          request,
          dataset_id: chosen,
          experiment_name: name.trim() || null,
          evaluators: exact ? ["exact_match"] : [],
        },
        (done, total) => setProgress({ done, total }),
      ),
    );
  };
  return (
    <form className={`card ${styles.variables}`} aria-label="Run over dataset" onSubmit={(e) => void submit(e)}>
      <label className={styles.field}>
        Dataset
        <select className="select" value={chosen} onChange={(e) => setDatasetId(e.target.value)} aria-label="Dataset">
          {(datasets.data ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.name} ({d.example_count} examples)
            </option>
          ))}
        </select>
      </label>
      {variants.length > 1 && (
        <label className={styles.field}>
          Variant
          <select className="select" value={which} onChange={(e) => setWhich(Number(e.target.value))} aria-label="Variant to run">
            {variants.map((v, i) => (
              <option key={v.key} value={i}>
                {String.fromCharCode(65 + i)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className={styles.field}>
        Experiment name (optional)
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} aria-label="Experiment name" />
      </label>
      <label className="row" style={{ alignSelf: "flex-end" }}>
        <input type="checkbox" checked={exact} onChange={(e) => setExact(e.target.checked)} /> Score exact match with the reference
      </label>
      <div className="row" style={{ alignSelf: "flex-end" }}>
        <button type="submit" className="btn btn-primary" disabled={!chosen || running}>
          {running ? `Running ${progress.done} / ${progress.total || "…"}` : "Run experiment"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
        {result && "error" in result && (
          <span className="err-text" role="alert">
            {result.error}
          </span>
        )}
        {result && "experiment_id" in result && (
          <span role="status">
            {result.runs - result.failed} of {result.runs} examples ran:{" "}
            <Link href={`/o/${workspaceId}/datasets/${result.dataset_id}/compare?selectedSessions=${result.experiment_id}`}>
              {result.experiment_name}
            </Link>
          </span>
        )}
      </div>
    </form>
  );
}
