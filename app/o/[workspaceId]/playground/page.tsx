"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { use, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { templateVariables } from "@/server/generate/manifest";
import { fillMessages } from "@/server/playground/trace";
import { DatasetRun } from "./dataset-run";
import { runVariant, type ChatRequest } from "./stream";
import { requestOf, VariantColumn, type Variant } from "./variant";
import styles from "./playground.module.css";

const MAX_VARIANTS = 3;
const BLANK: ChatRequest = {
  model: "",
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "" },
  ],
};

let keys = 0;
const variantOf = (request: ChatRequest, connectionId: string | null): Variant => ({
  key: `v${keys++}`,
  connectionId,
  request,
  toolsText: request.tools?.length ? JSON.stringify(request.tools, null, 2) : "",
  schemaText: "",
  output: "",
  running: false,
  outcome: null,
});

/**
 * The playground: an LLM call opened from a run (`?run=`) or a prompt commit (`?prompt=owner/name:ref`),
 * edited and run again, up to three variants side by side on the same inputs; answers stream in,
 * each call is traced in the "playground" project.
 */
export default function PlaygroundPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const trpc = useTRPC();
  const search = useSearchParams();
  const runId = search.get("run");
  const prompt = /^([^/]+)\/([^:]+)(?::(.+))?$/.exec(search.get("prompt") ?? "");
  const me = useQuery(trpc.account.me.queryOptions());
  const connections = useQuery(trpc.models.connections.queryOptions({ workspaceId }));
  const fromRun = useQuery({ ...trpc.playground.fromRun.queryOptions({ workspaceId, runId: runId ?? "" }), enabled: !!runId });
  const fromPrompt = useQuery({
    ...trpc.playground.fromPrompt.queryOptions({
      workspaceId,
      owner: prompt?.[1] ?? "-",
      repo: prompt?.[2] ?? "",
      ref: prompt?.[3] ?? "latest",
    }),
    enabled: !!prompt,
  });
  const seed = runId ? fromRun : prompt ? fromPrompt : null;
  const [variants, setVariants] = useState<Variant[] | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [saveOpen, setSaveOpen] = useState(false);
  const [datasetOpen, setDatasetOpen] = useState(false);
  const aborts = useRef(new Map<string, AbortController>());
  const firstConnection = connections.data?.[0]?.id ?? null;

  useEffect(() => {
    if (variants || !connections.data || (seed && !seed.data)) return;
    const request = seed?.data?.request ?? BLANK;
    const model = request.model || connections.data[0]?.default_model || "";
    setVariants([variantOf({ ...request, model }, firstConnection)]);
  }, [variants, connections.data, seed, seed?.data, firstConnection]);

  const update = (key: string, change: (v: Variant) => Variant) =>
    setVariants((all) => all?.map((v) => (v.key === key ? change(v) : v)) ?? null);
  const run = async (v: Variant) => {
    const request = requestOf(v);
    if (typeof request === "string") return update(v.key, (x) => ({ ...x, outcome: { error: request } }));
    aborts.current.get(v.key)?.abort();
    const abort = new AbortController();
    aborts.current.set(v.key, abort);
    update(v.key, (x) => ({ ...x, running: true, output: "", outcome: null }));
    try {
      const outcome = await runVariant(
        { workspaceId, userId: me.data!.id },
        {
          connection_id: v.connectionId,
          request: { ...request, messages: fillMessages(request.messages, values) },
          source: seed?.data?.source ?? null,
        },
        (text) => update(v.key, (x) => ({ ...x, output: x.output + text })),
        abort.signal,
      );
      update(v.key, (x) => ({ ...x, running: false, outcome, output: x.output || outcome.text || "" }));
    } catch (error) {
      update(v.key, (x) => ({ ...x, running: false, outcome: { error: (error as Error).message } }));
    }
  };
  const runAll = () => variants?.forEach((v) => void run(v));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key === "Enter") {
        e.preventDefault();
        runAll();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  if (connections.isPending || me.isPending || seed?.isPending) return <LoadingState label="Opening the playground…" />;
  if (connections.error) return <ErrorState error={connections.error} />;
  if (seed?.error) return <ErrorState error={seed.error} title="Could not open this in the playground" />;
  if (connections.data.length === 0)
    return (
      <div className="page">
        <EmptyState
          title="No model connection yet"
          action={
            <Link className="btn btn-primary" href={`/o/${workspaceId}/settings?tab=models`}>
              Add a model connection
            </Link>
          }
        >
          The playground calls models through a connection of this workspace: an OpenAI-compatible server or Anthropic.
        </EmptyState>
      </div>
    );
  if (!variants) return <LoadingState />;
  // The prompt's inputs, and any `{variable}` typed into a message since.
  const variables = [
    ...new Set([
      ...(seed?.data?.variables ?? []),
      ...variants.flatMap((v) =>
        v.request.messages.flatMap((m) =>
          templateVariables(
            typeof m.content === "string"
              ? m.content
              : (m.content ?? []).map((p) => (p.type === "text" ? String(p.text ?? "") : "")).join("\n"),
          ),
        ),
      ),
    ]),
  ];
  return (
    <div className="page" data-testid="playground">
      <div className="page-header">
        <div>
          <h1>Playground</h1>
          <div className="subtitle">
            {seed?.data?.source && "run_id" in seed.data.source ? (
              <>Opened from a run: edit and run it again. Calls are traced in the “playground” project.</>
            ) : seed?.data?.source ? (
              <>Opened from prompt {String((seed.data.source as { prompt?: string }).prompt)}.</>
            ) : (
              <>Write a prompt, pick a model, run. Calls are traced in the “playground” project.</>
            )}
          </div>
        </div>
        <div className={styles.toolbar}>
          <button
            type="button"
            className="btn"
            disabled={variants.length >= MAX_VARIANTS}
            onClick={() => setVariants([...variants, variantOf(structuredClone(variants.at(-1)!.request), variants.at(-1)!.connectionId)])}
          >
            Add variant
          </button>
          <button type="button" className="btn" onClick={() => setSaveOpen(!saveOpen)}>
            Save as prompt
          </button>
          <button type="button" className="btn" onClick={() => setDatasetOpen(!datasetOpen)}>
            Run over dataset
          </button>
          <button type="button" className="btn btn-primary" onClick={runAll} disabled={variants.some((v) => v.running)}>
            Run all <span className="kbd">Ctrl Enter</span>
          </button>
        </div>
      </div>
      {saveOpen && <SavePrompt workspaceId={workspaceId} variants={variants} onDone={() => setSaveOpen(false)} />}
      {datasetOpen && (
        <DatasetRun workspaceId={workspaceId} userId={me.data!.id} variants={variants} onClose={() => setDatasetOpen(false)} />
      )}
      {variables.length > 0 && (
        <div className={`card ${styles.variables}`} aria-label="Inputs">
          {variables.map((name) => (
            <label key={name} className={styles.field}>
              {name}
              <input
                className="input"
                value={values[name] ?? ""}
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
                aria-label={`Input ${name}`}
              />
            </label>
          ))}
        </div>
      )}
      {seed?.data?.previous_answer && (
        <details className="card" style={{ padding: "8px 12px", marginBottom: 12 }}>
          <summary className="muted">The run&apos;s original answer</summary>
          <div className={styles.previous}>{seed.data.previous_answer}</div>
        </details>
      )}
      <div className={styles.variants} style={{ gridTemplateColumns: `repeat(${variants.length}, minmax(0, 1fr))` }}>
        {variants.map((v, i) => (
          <VariantColumn
            key={v.key}
            workspaceId={workspaceId}
            index={i}
            variant={v}
            connections={connections.data}
            canRemove={variants.length > 1}
            onChange={(next) => update(v.key, () => next)}
            onRemove={() => setVariants(variants.filter((x) => x.key !== v.key))}
            onRun={() => void run(v)}
          />
        ))}
      </div>
    </div>
  );
}

/** Saves one variant's text messages as a commit of a prompt (made if new). */
function SavePrompt({ workspaceId, variants, onDone }: { workspaceId: string; variants: Variant[]; onDone: () => void }) {
  const trpc = useTRPC();
  const [repo, setRepo] = useState("");
  const [which, setWhich] = useState(0);
  const save = useMutation(trpc.playground.saveCommit.mutationOptions());
  const chosen = variants[Math.min(which, variants.length - 1)];
  const messages = chosen.request.messages.flatMap((m) =>
    typeof m.content === "string" && (m.role === "system" || m.role === "user" || m.role === "assistant")
      ? [{ role: m.role, content: m.content }]
      : [],
  );
  return (
    <form
      className={`card ${styles.variables}`}
      aria-label="Save as prompt"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ workspaceId, repo: repo.trim(), messages });
      }}
    >
      <label className={styles.field}>
        Prompt name
        <input
          className="input"
          value={repo}
          onChange={(e) => setRepo(e.target.value)}
          placeholder="support-answer"
          required
          aria-label="Prompt name"
        />
      </label>
      {variants.length > 1 && (
        <label className={styles.field}>
          Variant
          <select className="select" value={which} onChange={(e) => setWhich(Number(e.target.value))}>
            {variants.map((v, i) => (
              <option key={v.key} value={i}>
                {String.fromCharCode(65 + i)}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="row" style={{ alignSelf: "flex-end" }}>
        <button type="submit" className="btn btn-primary" disabled={!repo.trim() || save.isPending || messages.length === 0}>
          Commit
        </button>
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Close
        </button>
        {save.data && (
          <span role="status">
            Committed{" "}
            <Link href={`/o/${workspaceId}/prompts/${save.data.commit.owner}/${save.data.commit.repo}`}>
              {save.data.commit.commit_hash.slice(0, 8)}
            </Link>
          </span>
        )}
        {save.error && (
          <span className="err-text" role="alert">
            {save.error.message}
          </span>
        )}
      </div>
    </form>
  );
}
