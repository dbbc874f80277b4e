"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import styles from "./run-detail.module.css";

const NEW = "__new__";

/** Copies runs' inputs and outputs into a dataset as new examples (an existing dataset or a new one). */
export function AddToDataset({
  workspaceId,
  runIds,
  align = "right",
}: {
  workspaceId: string;
  runIds: string[];
  align?: "left" | "right";
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState("");
  const [newName, setNewName] = useState("");
  const [split, setSplit] = useState("");
  const [done, setDone] = useState<{ id: string; name: string } | null>(null);
  const datasets = useQuery({ ...trpc.datasets.list.queryOptions({ workspaceId }), enabled: open });
  const createDataset = useMutation(trpc.datasets.create.mutationOptions());
  const addRuns = useMutation(trpc.datasets.addRuns.mutationOptions());
  const busy = createDataset.isPending || addRuns.isPending;
  const error = createDataset.error ?? addRuns.error;
  const chosen = target || datasets.data?.[0]?.id || NEW;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const dataset =
      chosen === NEW
        ? await createDataset.mutateAsync({ workspaceId, dataset: { name: newName.trim() } })
        : datasets.data!.find((d) => d.id === chosen)!;
    await addRuns.mutateAsync({ workspaceId, datasetId: dataset.id, body: { run_ids: runIds, split: split.trim() || null } });
    queryClient.invalidateQueries({ queryKey: trpc.datasets.pathKey() });
    setDone({ id: dataset.id, name: dataset.name });
  };
  return (
    <div className="menu-wrap">
      <button
        type="button"
        className="btn btn-sm"
        aria-expanded={open}
        onClick={() => {
          setOpen(!open);
          setDone(null);
        }}
      >
        Add to dataset
      </button>
      {open && (
        <form
          className={`menu ${styles.popover} ${align === "left" ? styles.popoverLeft : ""}`}
          onSubmit={(e) => void submit(e).catch(() => undefined)}
          aria-label="Add to dataset"
        >
          {done ? (
            <div className="col" role="status">
              <span>
                Added to <Link href={`/o/${workspaceId}/datasets/${done.id}`}>{done.name}</Link>.
              </span>
              <button type="button" className="btn btn-sm" onClick={() => setOpen(false)}>
                Close
              </button>
            </div>
          ) : (
            <>
              <label className={styles.field}>
                <span>Dataset</span>
                <select className="select" value={chosen} onChange={(e) => setTarget(e.target.value)} disabled={datasets.isPending}>
                  {(datasets.data ?? []).map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
                  <option value={NEW}>New dataset…</option>
                </select>
              </label>
              {chosen === NEW && (
                <label className={styles.field}>
                  <span>Name</span>
                  <input className="input" value={newName} onChange={(e) => setNewName(e.target.value)} required />
                </label>
              )}
              <label className={styles.field}>
                <span>
                  Split <span className="faint">(optional)</span>
                </span>
                <input className="input" value={split} onChange={(e) => setSplit(e.target.value)} placeholder="train" />
              </label>
              {error && (
                <span className="err-text" role="alert">
                  {error.message}
                </span>
              )}
              <button type="submit" className="btn btn-primary" disabled={busy || (chosen === NEW && !newName.trim())}>
                {busy ? "Adding…" : runIds.length === 1 ? "Add run" : `Add ${runIds.length} runs`}
              </button>
            </>
          )}
        </form>
      )}
    </div>
  );
}
