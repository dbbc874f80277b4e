"use client";

import Link from "next/link";
import { useState } from "react";
import type { RouterOutputs } from "@/app/trpc-types";
import { formatCost, formatLatency } from "../_components/format";
import { Markdown } from "../_components/conversation/markdown";
import { MessagesEditor } from "./message-editor";
import type { ChatRequest, Outcome } from "./stream";
import styles from "./playground.module.css";

type Connection = RouterOutputs["models"]["connections"][number];

export interface Variant {
  key: string;
  connectionId: string | null;
  request: ChatRequest;
  /** The tools and the structured-output schema as edited JSON text. */
  toolsText: string;
  schemaText: string;
  output: string;
  running: boolean;
  outcome: Outcome | null;
}

/** The request a variant sends, or what is wrong with its JSON. */
export function requestOf(v: Variant): ChatRequest | string {
  let tools: ChatRequest["tools"] = null;
  let responseFormat: ChatRequest["response_format"] = null;
  try {
    tools = v.toolsText.trim() ? (JSON.parse(v.toolsText) as ChatRequest["tools"]) : null;
    if (tools && !Array.isArray(tools)) return 'Tools must be a JSON array of {type: "function", function: {name, parameters}}.';
  } catch (e) {
    return `Tools are not valid JSON: ${(e as Error).message}`;
  }
  try {
    const schema = v.schemaText.trim() ? (JSON.parse(v.schemaText) as Record<string, unknown>) : null;
    responseFormat = schema
      ? { type: "json_schema", json_schema: { name: String(schema.title ?? "output"), schema } }
      : v.request.response_format;
  } catch (e) {
    return `The output schema is not valid JSON: ${(e as Error).message}`;
  }
  return { ...v.request, tools, response_format: responseFormat };
}

const prettyArgs = (args: string) => {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
};

/** The answer: its text as Markdown (as it streams), then any tool calls it made, by name with their arguments. */
function VariantOutput({ variant }: { variant: Variant }) {
  const calls = variant.outcome?.tool_calls ?? [];
  const answered = !!variant.outcome && !variant.outcome.error;
  return (
    <div className={styles.output} data-testid="variant-output" aria-live="polite">
      {variant.output ? (
        <Markdown text={variant.output} />
      ) : variant.running ? (
        "…"
      ) : answered && calls.length === 0 ? (
        <span className="faint">The model answered with no text.</span>
      ) : calls.length === 0 ? (
        <span className="faint">The answer streams here.</span>
      ) : null}
      {calls.length > 0 && (
        <div className={styles.toolCalls} data-testid="answer-tool-calls">
          {calls.map((call, i) => (
            <div key={call.id || i} className={styles.callOut} data-testid="answer-tool-call">
              <div className={styles.toolCallHead}>
                <span className="badge badge-accent">tool call</span>
                <b className="mono">{call.function.name}</b>
                <span className="grow" />
                <span className="faint mono">{call.id}</span>
              </div>
              <pre>{prettyArgs(call.function.arguments)}</pre>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

const numberOrNull = (text: string) => (text.trim() === "" || Number.isNaN(Number(text)) ? null : Number(text));

/** One column of the playground: connection, model and parameters, messages, tools, schema, and the streamed answer. */
export function VariantColumn({
  workspaceId,
  index,
  variant,
  connections,
  canRemove,
  onChange,
  onRemove,
  onRun,
}: {
  workspaceId: string;
  index: number;
  variant: Variant;
  connections: Connection[];
  canRemove: boolean;
  onChange: (v: Variant) => void;
  onRemove: () => void;
  onRun: () => void;
}) {
  const [showTools, setShowTools] = useState(!!variant.toolsText);
  const [showSchema, setShowSchema] = useState(!!variant.schemaText);
  const r = variant.request;
  const set = (change: Partial<ChatRequest>) => onChange({ ...variant, request: { ...r, ...change } });
  const o = variant.outcome;
  const toolCount = (() => {
    try {
      return variant.toolsText.trim() ? (JSON.parse(variant.toolsText) as unknown[]).length : 0;
    } catch {
      return "?";
    }
  })();
  return (
    <section className={`card ${styles.variant}`} aria-label={`Variant ${index + 1}`} data-testid="variant">
      <div className="row">
        <b>Variant {String.fromCharCode(65 + index)}</b>
        <span className="grow" />
        <button type="button" className="btn btn-sm btn-primary" onClick={onRun} disabled={variant.running}>
          {variant.running ? "Running…" : "Run"}
        </button>
        {canRemove && (
          <button type="button" className="btn btn-sm btn-ghost" onClick={onRemove} aria-label={`Remove variant ${index + 1}`}>
            ✕
          </button>
        )}
      </div>
      <div className={styles.settings}>
        <label className={styles.field}>
          Connection
          <select
            className="select"
            value={variant.connectionId ?? ""}
            onChange={(e) => onChange({ ...variant, connectionId: e.target.value || null })}
            aria-label="Connection"
          >
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          Model
          <input className="input" value={r.model} onChange={(e) => set({ model: e.target.value })} aria-label="Model" />
        </label>
        <label className={styles.field}>
          Temperature
          <input
            className="input"
            type="number"
            step="0.1"
            min={0}
            max={2}
            value={r.temperature ?? ""}
            onChange={(e) => set({ temperature: numberOrNull(e.target.value) })}
            aria-label="Temperature"
          />
        </label>
        <label className={styles.field}>
          Max tokens
          <input
            className="input"
            type="number"
            min={1}
            value={r.max_tokens ?? ""}
            onChange={(e) => set({ max_tokens: numberOrNull(e.target.value) })}
            aria-label="Max tokens"
          />
        </label>
        <label className={styles.field}>
          Stop
          <input
            className="input"
            value={(r.stop ?? []).join(", ")}
            placeholder="comma separated"
            onChange={(e) =>
              set({
                stop: e.target.value
                  .split(",")
                  .map((s) => s.trim())
                  .filter(Boolean),
              })
            }
            aria-label="Stop sequences"
          />
        </label>
      </div>
      <MessagesEditor messages={r.messages} onChange={(messages) => set({ messages })} />
      <div className="row">
        <button type="button" className="btn btn-sm btn-ghost" aria-expanded={showTools} onClick={() => setShowTools(!showTools)}>
          Tools ({toolCount})
        </button>
        <button type="button" className="btn btn-sm btn-ghost" aria-expanded={showSchema} onClick={() => setShowSchema(!showSchema)}>
          Output schema{variant.schemaText.trim() ? " (set)" : ""}
        </button>
      </div>
      {showTools && (
        <textarea
          className={`textarea ${styles.json}`}
          rows={8}
          value={variant.toolsText}
          placeholder='[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]'
          onChange={(e) => onChange({ ...variant, toolsText: e.target.value })}
          aria-label="Tools (JSON)"
        />
      )}
      {showSchema && (
        <textarea
          className={`textarea ${styles.json}`}
          rows={6}
          value={variant.schemaText}
          placeholder='{"title": "answer", "type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}'
          onChange={(e) => onChange({ ...variant, schemaText: e.target.value })}
          aria-label="Output schema (JSON Schema)"
        />
      )}
      <VariantOutput variant={variant} />
      {o?.error && (
        <span className="err-text" role="alert">
          {o.error}
        </span>
      )}
      {o?.run_id && (
        <div className={styles.metrics} data-testid="variant-metrics">
          <span>
            Tokens {o.usage?.input_tokens ?? "–"} in / {o.usage?.output_tokens ?? "–"} out
          </span>
          <span>Cost {o.total_cost == null ? "–" : formatCost(o.total_cost)}</span>
          <span>Latency {o.latency_ms == null ? "–" : formatLatency(o.latency_ms / 1000)}</span>
          <span>First token {o.first_token_ms == null ? "–" : formatLatency(o.first_token_ms / 1000)}</span>
          <Link href={`/o/${workspaceId}/projects/p/playground/r/${o.run_id}`}>Trace</Link>
        </div>
      )}
    </section>
  );
}
