"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import styles from "../../queues.module.css";

/** `d` in the review view: the run becomes an example, with its output corrected here if need be. */
export function DatasetPanel({
  workspaceId,
  queueId,
  itemId,
  defaultDataset,
  outputs,
  onClose,
}: {
  workspaceId: string;
  queueId: string;
  itemId: string;
  defaultDataset: string | null;
  outputs: unknown;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const datasets = useQuery(trpc.datasets.list.queryOptions({ workspaceId }));
  const [datasetId, setDatasetId] = useState(defaultDataset ?? "");
  const [text, setText] = useState(JSON.stringify(outputs ?? {}, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const add = useMutation(trpc.queues.addToDataset.mutationOptions());
  useEffect(() => area.current?.focus(), []);
  const chosen = datasetId || datasets.data?.[0]?.id || "";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    let corrected: Record<string, unknown>;
    try {
      corrected = JSON.parse(text) as Record<string, unknown>;
      if (!corrected || typeof corrected !== "object" || Array.isArray(corrected)) throw new Error("The output must be a JSON object.");
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      return;
    }
    setProblem(null);
    add.mutate({ workspaceId, queueId, itemId, datasetId: chosen, outputs: corrected });
  };
  return (
    <form className={`card ${styles.reference}`} onSubmit={submit} aria-label="Add to dataset">
      <div className="row">
        <b>Add to dataset</b>
        <select className="select" value={chosen} onChange={(e) => setDatasetId(e.target.value)} aria-label="Dataset">
          {(datasets.data ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
        <span className="grow" />
        <button type="button" className="btn btn-sm btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <label className="col">
        <span className="faint">Reference output (correct it if the run got it wrong)</span>
        <textarea
          ref={area}
          className="textarea"
          rows={6}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-label="Corrected output"
        />
      </label>
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={!chosen || add.isPending}>
          Add example <span className="kbd">Ctrl Enter</span>
        </button>
        {add.isSuccess && <span role="status">Added as an example.</span>}
        {(problem || add.error) && (
          <span className="err-text" role="alert">
            {problem ?? add.error?.message}
          </span>
        )}
      </div>
    </form>
  );
}
