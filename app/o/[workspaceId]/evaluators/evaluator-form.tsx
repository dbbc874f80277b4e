"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import grid from "../_components/form-grid.module.css";
import styles from "./evaluators.module.css";

type KeyType = "boolean" | "number" | "categorical";

interface KeyRow {
  key: string;
  type: KeyType;
  description: string;
  categories: string;
}

const SYSTEM = "You are grading the answer of an AI assistant. Be strict and brief.";
const USER = "Question:\n{input}\n\nAnswer:\n{output}\n\nReference answer (may be empty):\n{reference}";

/** The output schema the model answers in: each row a feedback key, plus a `reasoning` comment when asked for. */
function schemaOf(rows: KeyRow[], reasoning: boolean) {
  const properties: Record<string, { type: string } & Record<string, unknown>> = {};
  for (const row of rows) {
    const description = row.description.trim() || undefined;
    if (row.type === "categorical") {
      const categories = row.categories
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean);
      properties[row.key.trim()] = { type: "string", enum: categories, description };
    } else properties[row.key.trim()] = { type: row.type, description };
  }
  if (reasoning) properties.reasoning = { type: "string", description: "Why, in one or two sentences." };
  return { type: "object" as const, properties };
}

/** A new evaluator: the prompt over the run, the model that judges, and the feedback keys it answers. */
export function EvaluatorForm({ workspaceId, onDone }: { workspaceId: string; onDone: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const connections = useQuery(trpc.models.connections.queryOptions({ workspaceId }));
  const [name, setName] = useState("");
  const [connection, setConnection] = useState("");
  const [model, setModel] = useState("");
  const [system, setSystem] = useState(SYSTEM);
  const [user, setUser] = useState(USER);
  const [rows, setRows] = useState<KeyRow[]>([
    { key: "correctness", type: "boolean", description: "Is the answer correct?", categories: "" },
  ]);
  const [reasoning, setReasoning] = useState(true);
  const create = useMutation(
    trpc.evaluators.create.mutationOptions({
      onSuccess: ({ evaluator }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.evaluators.pathKey() });
        onDone(evaluator.id);
      },
    }),
  );
  const setRow = (i: number, change: Partial<KeyRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      workspaceId,
      name: name.trim(),
      type: "llm",
      llm_evaluator: {
        prompt: [
          ["system", system],
          ["user", user],
        ],
        schema: schemaOf(
          rows.filter((r) => r.key.trim()),
          reasoning,
        ),
        connection_id: connection || null,
        model: model.trim() || null,
      },
    });
  };
  const chosen = connections.data?.find((c) => c.id === connection) ?? connections.data?.[0];
  return (
    <form className={`card ${grid.form}`} onSubmit={submit} aria-label="New evaluator">
      <label className={grid.field}>
        Name
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} required aria-label="Evaluator name" />
      </label>
      <label className={grid.field}>
        Model connection
        <select className="select" value={connection} onChange={(e) => setConnection(e.target.value)} aria-label="Model connection">
          <option value="">The workspace&apos;s first</option>
          {(connections.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className={grid.field}>
        Model
        <input
          className="input"
          value={model}
          placeholder={chosen?.default_model ?? "the connection's default"}
          onChange={(e) => setModel(e.target.value)}
          aria-label="Model"
        />
      </label>
      <label className={`${grid.field} ${grid.wide}`}>
        System message
        <textarea className="textarea" rows={2} value={system} onChange={(e) => setSystem(e.target.value)} aria-label="System message" />
      </label>
      <label className={`${grid.field} ${grid.wide}`}>
        User message
        <textarea className="textarea mono" rows={8} value={user} onChange={(e) => setUser(e.target.value)} aria-label="User message" />
        <span className="faint">
          {"{input}"}, {"{output}"} and {"{reference}"} are the run&apos;s inputs, outputs and (for an experiment) the example&apos;s
          outputs.
        </span>
      </label>
      <div className={grid.wide}>
        <div className="row">
          <b>Feedback keys</b>
          <span className="faint">The model answers each one for every run it judges.</span>
        </div>
        {rows.map((row, i) => (
          <div key={i} className={styles.keyRow} data-testid="feedback-key">
            <input
              className="input"
              placeholder="Feedback key"
              value={row.key}
              onChange={(e) => setRow(i, { key: e.target.value })}
              aria-label={`Key ${i + 1}`}
            />
            <select
              className="select"
              value={row.type}
              onChange={(e) => setRow(i, { type: e.target.value as KeyType })}
              aria-label={`Key ${i + 1} type`}
            >
              <option value="boolean">Yes / no</option>
              <option value="number">Score</option>
              <option value="categorical">Categories</option>
            </select>
            {row.type === "categorical" ? (
              <input
                className="input"
                placeholder="Categories, comma-separated"
                value={row.categories}
                onChange={(e) => setRow(i, { categories: e.target.value })}
                aria-label={`Key ${i + 1} categories`}
              />
            ) : (
              <input
                className="input"
                placeholder="What the model is asked (optional)"
                value={row.description}
                onChange={(e) => setRow(i, { description: e.target.value })}
                aria-label={`Key ${i + 1} description`}
              />
            )}
            <button
              type="button"
              className="btn btn-sm btn-ghost"
              onClick={() => setRows(rows.filter((_, j) => j !== i))}
              aria-label={`Remove key ${i + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        <div className="row" style={{ marginTop: 8 }}>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => setRows([...rows, { key: "", type: "number", description: "", categories: "" }])}
          >
            Add key
          </button>
          <label className="row">
            <input type="checkbox" checked={reasoning} onChange={(e) => setReasoning(e.target.checked)} /> Ask for the reasoning (the
            feedback&apos;s comment)
          </label>
        </div>
      </div>
      <div className={`${grid.wide} row`}>
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !name.trim()}>
          Create evaluator
        </button>
        {create.error && (
          <span className="err-text" role="alert">
            {create.error.message}
          </span>
        )}
      </div>
    </form>
  );
}
