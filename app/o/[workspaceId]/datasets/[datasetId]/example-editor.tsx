"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import styles from "../datasets.module.css";

type ExampleView = RouterOutputs["datasets"]["examples"][number];

/** A JSON object typed by hand: the value, or why it is not one. */
export function parseObject(text: string, field: string, optional = false): { value?: Record<string, unknown> | null; error?: string } {
  if (!text.trim()) return optional ? { value: null } : { error: `${field}: enter a JSON object, for example {"question": "…"}.` };
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value))
      return { error: `${field}: must be a JSON object ({…}), not ${Array.isArray(value) ? "an array" : typeof value}.` };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: `${field}: ${(error as Error).message}` };
  }
}

const pretty = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value, null, 2));

/**
 * Adds an example, or edits one (a new version of the dataset either way): inputs and reference
 * outputs as JSON objects, checked as you type, and its splits.
 */
export function ExampleEditor({
  workspaceId,
  datasetId,
  example,
  splits,
  onDone,
}: {
  workspaceId: string;
  datasetId: string;
  example: ExampleView | null;
  splits: string[];
  onDone: (saved: ExampleView | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [inputs, setInputs] = useState(pretty(example?.inputs ?? { question: "" }));
  const [outputs, setOutputs] = useState(pretty(example?.outputs));
  const current = example?.metadata?.dataset_split;
  const [split, setSplit] = useState(Array.isArray(current) ? current.join(", ") : typeof current === "string" ? current : "");
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.datasets.pathKey() });
  const done = (saved: ExampleView | null) => void refresh().then(() => onDone(saved));
  const create = useMutation(trpc.datasets.createExample.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.datasets.updateExample.mutationOptions({ onSuccess: done }));
  const remove = useMutation(trpc.datasets.deleteExamples.mutationOptions({ onSuccess: () => done(null) }));
  const parsedInputs = parseObject(inputs, "Inputs");
  const parsedOutputs = parseObject(outputs, "Reference outputs", true);
  const invalid = parsedInputs.error ?? parsedOutputs.error;
  const saving = create.isPending || update.isPending || remove.isPending;
  const error = create.error ?? update.error ?? remove.error;
  const save = () => {
    if (invalid) return;
    const names = split
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const body = { workspaceId, inputs: parsedInputs.value!, outputs: parsedOutputs.value ?? null, split: names.length ? names : null };
    if (example) update.mutate({ ...body, exampleId: example.id });
    else create.mutate({ ...body, datasetId });
  };
  return (
    <div className="col" style={{ gap: 10 }} data-testid="example-editor">
      <label className="col" style={{ gap: 4 }}>
        <span className="stat-label">Inputs</span>
        <textarea
          className={`textarea mono ${styles.json}`}
          rows={8}
          value={inputs}
          onChange={(e) => setInputs(e.target.value)}
          spellCheck={false}
        />
      </label>
      <label className="col" style={{ gap: 4 }}>
        <span className="stat-label">Reference outputs</span>
        <textarea
          className={`textarea mono ${styles.json}`}
          rows={6}
          value={outputs}
          placeholder="(none)"
          onChange={(e) => setOutputs(e.target.value)}
          spellCheck={false}
        />
      </label>
      <label className="col" style={{ gap: 4 }}>
        <span className="stat-label">Splits</span>
        <input className="input" value={split} onChange={(e) => setSplit(e.target.value)} placeholder="train, test" list="dataset-splits" />
        <datalist id="dataset-splits">
          {splits.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </label>
      {(invalid || error) && (
        <div className="err-text" role="alert">
          {invalid ?? error?.message}
        </div>
      )}
      <div className="row">
        <button type="button" className="btn btn-primary btn-sm" disabled={Boolean(invalid) || saving} onClick={save}>
          {example ? "Save" : "Add example"}
        </button>
        <button type="button" className="btn btn-sm" onClick={() => onDone(example)} disabled={saving}>
          Cancel
        </button>
        <span className="grow" />
        {example &&
          (confirming ? (
            <>
              <span className="muted">Delete this example?</span>
              <button
                type="button"
                className="btn btn-danger btn-sm"
                disabled={saving}
                onClick={() => remove.mutate({ workspaceId, exampleIds: [example.id] })}
              >
                Delete
              </button>
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          ))}
      </div>
    </div>
  );
}
