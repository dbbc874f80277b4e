"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterInputs, RouterOutputs } from "@/app/trpc-types";
import grid from "../_components/form-grid.module.css";
import styles from "./queues.module.css";

type Queue = RouterOutputs["queues"]["get"];
type Config = RouterOutputs["feedback"]["configs"][number];
type Scoring = "continuous" | "categorical" | "freeform";

/** One rubric row as edited: a key, and for a key without a config yet, how it is scored. */
interface Row {
  key: string;
  description: string;
  required: boolean;
  type: Scoring;
  min: string;
  max: string;
  labels: string;
}

const emptyRow = (): Row => ({ key: "", description: "", required: false, type: "categorical", min: "0", max: "1", labels: "bad, good" });

function describeConfig(c: Config): string {
  const f = c.feedback_config;
  if (f.type === "continuous") return `score ${f.min ?? "−∞"} to ${f.max ?? "∞"}`;
  if (f.type === "categorical") return (f.categories ?? []).map((cat) => cat.label ?? String(cat.value)).join(" · ");
  return "free text";
}

/** The feedback config a new key gets from its row. */
function configOf(row: Row): NonNullable<RouterInputs["queues"]["save"]["configs"]>[number] {
  if (row.type === "continuous")
    return { feedback_key: row.key, feedback_config: { type: "continuous", min: Number(row.min), max: Number(row.max) } };
  if (row.type === "categorical") {
    const labels = row.labels
      .split(",")
      .map((l) => l.trim())
      .filter(Boolean);
    return {
      feedback_key: row.key,
      feedback_config: { type: "categorical", categories: labels.map((label, value) => ({ value, label })) },
    };
  }
  return { feedback_key: row.key, feedback_config: { type: "freeform" } };
}

/** Create or edit a queue: its settings and the rubric builder (existing feedback keys, or new ones with their scoring). */
export function QueueForm({ workspaceId, queue, onDone }: { workspaceId: string; queue?: Queue; onDone: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const configs = useQuery(trpc.feedback.configs.queryOptions({ workspaceId }));
  const datasets = useQuery(trpc.datasets.list.queryOptions({ workspaceId }));
  const [name, setName] = useState(queue?.name ?? "");
  const [description, setDescription] = useState(queue?.description ?? "");
  const [instructions, setInstructions] = useState(queue?.rubric_instructions ?? "");
  const [reviewers, setReviewers] = useState(String(queue?.num_reviewers_per_item ?? 1));
  const [minutes, setMinutes] = useState(String(queue?.reservation_minutes ?? 5));
  const [dataset, setDataset] = useState(queue?.default_dataset ?? "");
  const [queueType, setQueueType] = useState<"single" | "pairwise">(queue?.queue_type ?? "single");
  const [access, setAccess] = useState<"any" | "assigned">(queue?.reviewer_access_mode ?? "any");
  const [rows, setRows] = useState<Row[]>(
    queue?.rubric_items?.map((i) => ({
      ...emptyRow(),
      key: i.feedback_key,
      description: i.description ?? "",
      required: !!i.is_required,
    })) ?? [emptyRow()],
  );
  const save = useMutation(
    trpc.queues.save.mutationOptions({
      onSuccess: (saved) => {
        void queryClient.invalidateQueries({ queryKey: trpc.queues.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.feedback.configs.pathKey() });
        onDone(saved.id);
      },
    }),
  );
  const existing = new Map((configs.data ?? []).map((c) => [c.feedback_key, c]));
  const setRow = (i: number, change: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const filled = rows.filter((r) => r.key.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      workspaceId,
      queueId: queue?.id,
      queue: {
        name: name.trim(),
        ...(queue ? {} : { queue_type: queueType }),
        description: description.trim() || null,
        rubric_instructions: instructions.trim() || null,
        num_reviewers_per_item: Number(reviewers) || 1,
        reviewer_access_mode: access,
        reservation_minutes: Number(minutes) || 5,
        default_dataset: dataset || null,
        rubric_items: filled.map((r) => ({
          feedback_key: r.key.trim(),
          description: r.description.trim() || null,
          is_required: r.required,
        })),
      },
      configs: filled.filter((r) => !existing.has(r.key.trim())).map((r) => configOf({ ...r, key: r.key.trim() })),
    });
  };
  return (
    <form className={`card ${grid.form}`} onSubmit={submit} aria-label={queue ? "Edit queue" : "New queue"}>
      <label className={grid.field}>
        Name
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} required aria-label="Queue name" />
      </label>
      <label className={grid.field}>
        Type
        <select
          className="select"
          value={queueType}
          onChange={(e) => setQueueType(e.target.value as "single" | "pairwise")}
          disabled={!!queue}
          aria-label="Queue type"
        >
          <option value="single">Single run</option>
          <option value="pairwise">Pairwise (two runs side by side)</option>
        </select>
      </label>
      <label className={grid.field}>
        Reviewers per run
        <input className="input" type="number" min={1} max={100} value={reviewers} onChange={(e) => setReviewers(e.target.value)} />
      </label>
      <label className={grid.field}>
        Who reviews
        <select
          className="select"
          value={access}
          onChange={(e) => setAccess(e.target.value as "any" | "assigned")}
          aria-label="Who reviews"
        >
          <option value="any">Anyone who may review</option>
          <option value="assigned">Only the assigned reviewers</option>
        </select>
      </label>
      <label className={grid.field}>
        Reservation (minutes)
        <input className="input" type="number" min={1} max={1440} value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      </label>
      <label className={grid.field}>
        Default dataset
        <select className="select" value={dataset} onChange={(e) => setDataset(e.target.value)} aria-label="Default dataset">
          <option value="">None</option>
          {(datasets.data ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
      </label>
      <label className={`${grid.field} ${grid.wide}`}>
        Description
        <input className="input" value={description} onChange={(e) => setDescription(e.target.value)} aria-label="Description" />
      </label>
      <label className={`${grid.field} ${grid.wide}`}>
        Instructions for reviewers
        <textarea
          className="textarea"
          rows={3}
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          aria-label="Instructions"
        />
      </label>
      <div className={grid.wide}>
        <div className="row">
          <b>Rubric</b>
          <span className="faint">Each item is a feedback key; reviewers answer it for every run.</span>
        </div>
        <datalist id="feedback-keys">
          {(configs.data ?? []).map((c) => (
            <option key={c.id} value={c.feedback_key} />
          ))}
        </datalist>
        {rows.map((row, i) => {
          const config = existing.get(row.key.trim());
          return (
            <div key={i} className={styles.rubricItem} data-testid="rubric-item">
              <input
                className="input"
                list="feedback-keys"
                placeholder="Feedback key"
                value={row.key}
                onChange={(e) => setRow(i, { key: e.target.value })}
                aria-label={`Rubric item ${i + 1} key`}
              />
              <select
                className="select"
                value={config ? config.feedback_config.type : row.type}
                disabled={!!config}
                onChange={(e) => setRow(i, { type: e.target.value as Scoring })}
                aria-label={`Rubric item ${i + 1} type`}
              >
                <option value="categorical">Categories</option>
                <option value="continuous">Score</option>
                <option value="freeform">Free text</option>
              </select>
              <input
                className="input"
                placeholder="Question for the reviewer (optional)"
                value={row.description}
                onChange={(e) => setRow(i, { description: e.target.value })}
                aria-label={`Rubric item ${i + 1} description`}
              />
              <label className="row">
                <input type="checkbox" checked={row.required} onChange={(e) => setRow(i, { required: e.target.checked })} /> Required
              </label>
              <button
                type="button"
                className="btn btn-sm btn-ghost"
                onClick={() => setRows(rows.filter((_, j) => j !== i))}
                aria-label={`Remove rubric item ${i + 1}`}
              >
                Remove
              </button>
              <div className={styles.scoring}>
                {config ? (
                  <span>Existing key: {describeConfig(config)}</span>
                ) : row.type === "continuous" ? (
                  <>
                    From{" "}
                    <input
                      className="input"
                      style={{ width: 70 }}
                      type="number"
                      value={row.min}
                      onChange={(e) => setRow(i, { min: e.target.value })}
                      aria-label={`Rubric item ${i + 1} min`}
                    />
                    to{" "}
                    <input
                      className="input"
                      style={{ width: 70 }}
                      type="number"
                      value={row.max}
                      onChange={(e) => setRow(i, { max: e.target.value })}
                      aria-label={`Rubric item ${i + 1} max`}
                    />
                  </>
                ) : row.type === "categorical" ? (
                  <>
                    Categories, worst first:
                    <input
                      className="input grow"
                      value={row.labels}
                      onChange={(e) => setRow(i, { labels: e.target.value })}
                      aria-label={`Rubric item ${i + 1} categories`}
                    />
                  </>
                ) : (
                  <span>Reviewers write a short answer.</span>
                )}
              </div>
            </div>
          );
        })}
        <button type="button" className="btn btn-sm" onClick={() => setRows([...rows, emptyRow()])}>
          Add rubric item
        </button>
      </div>
      <div className={`row ${grid.wide}`}>
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || save.isPending}>
          {queue ? "Save queue" : "Create queue"}
        </button>
        {save.error && (
          <span className="err-text" role="alert">
            {save.error.message}
          </span>
        )}
      </div>
    </form>
  );
}
