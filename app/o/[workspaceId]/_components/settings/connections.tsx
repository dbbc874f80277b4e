"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { ErrorState, LoadingState } from "../ui";
import styles from "./settings.module.css";

type Tested = RouterOutputs["models"]["test"];

/** Settings → Model connections: where the playground, evaluators and drafts call models. Keys are write-only. */
export function ModelConnections({ workspaceId, role }: { workspaceId: string; role: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.models.connections.queryOptions({ workspaceId }));
  const [tested, setTested] = useState<Record<string, Tested>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.models.connections.pathKey() });
  const test = useMutation(trpc.models.test.mutationOptions());
  const remove = useMutation(trpc.models.delete.mutationOptions({ onSuccess: () => void refresh() }));
  const admin = role === "admin";
  if (list.isPending) return <LoadingState />;
  if (list.error) return <ErrorState error={list.error} retry={() => list.refetch()} />;
  return (
    <div className="col" style={{ gap: 16 }}>
      <div className="card" style={{ overflow: "auto" }}>
        <table className="table" data-testid="model-connections">
          <thead>
            <tr>
              <th>Name</th>
              <th>Provider</th>
              <th>Base URL</th>
              <th>Default model</th>
              <th>Key</th>
              <th>Headers</th>
              <th className="num">Per minute</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  No connections yet: add one to use the playground and model-judged evaluators.
                </td>
              </tr>
            )}
            {list.data.map((c) => {
              const result = tested[c.id];
              return (
                <tr key={c.id}>
                  <td>
                    {c.name} {c.source === "deployment" && <span className="badge">deployment</span>}
                  </td>
                  <td>{c.provider === "anthropic" ? "Anthropic" : "OpenAI-compatible"}</td>
                  <td>{c.base_url ? <code>{c.base_url}</code> : <span className="faint">set by the deployment</span>}</td>
                  <td>
                    <code>{c.default_model}</code>
                  </td>
                  <td>{c.api_key_set ? "set" : <span className="faint">none</span>}</td>
                  <td>{c.header_names.join(", ") || <span className="faint">—</span>}</td>
                  <td className="num">{c.requests_per_minute ?? <span className="faint">—</span>}</td>
                  <td className="num">
                    <span className="row" style={{ justifyContent: "flex-end" }}>
                      {result && (
                        <span className={result.ok ? "badge badge-ok" : "badge badge-error"} title={result.detail} role="status">
                          {result.ok ? `OK · ${result.latency_ms} ms` : "Failed"}
                        </span>
                      )}
                      <button
                        type="button"
                        className="btn btn-sm"
                        disabled={test.isPending}
                        onClick={() =>
                          test.mutate({ workspaceId, connectionId: c.id }, { onSuccess: (r) => setTested((t) => ({ ...t, [c.id]: r })) })
                        }
                      >
                        Test
                      </button>
                      {admin && c.source === "workspace" && (
                        <button
                          type="button"
                          className="btn btn-sm btn-ghost btn-danger"
                          onClick={() => remove.mutate({ workspaceId, connectionId: c.id })}
                        >
                          Delete
                        </button>
                      )}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {Object.values(tested).some((t) => !t.ok) && (
        <div className="err-text" role="alert">
          {Object.values(tested).find((t) => !t.ok)!.detail}
        </div>
      )}
      {admin ? (
        <AddConnection workspaceId={workspaceId} onAdded={() => void refresh()} />
      ) : (
        <span className="muted">Only admins add connections.</span>
      )}
    </div>
  );
}

function AddConnection({ workspaceId, onAdded }: { workspaceId: string; onAdded: () => void }) {
  const trpc = useTRPC();
  const [provider, setProvider] = useState<"openai" | "anthropic">("openai");
  const [name, setName] = useState("");
  const [baseUrl, setBaseUrl] = useState("https://api.openai.com/v1");
  const [model, setModel] = useState("gpt-4o-mini");
  const [apiKey, setApiKey] = useState("");
  const [headers, setHeaders] = useState("");
  const [perMinute, setPerMinute] = useState("");
  const create = useMutation(
    trpc.models.create.mutationOptions({
      onSuccess: () => {
        setName("");
        setApiKey("");
        setHeaders("");
        onAdded();
      },
    }),
  );
  const pick = (p: "openai" | "anthropic") => {
    setProvider(p);
    setBaseUrl(p === "anthropic" ? "https://api.anthropic.com" : "https://api.openai.com/v1");
    setModel(p === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o-mini");
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const extra = Object.fromEntries(
      headers
        .split("\n")
        .map((line) => line.split(/:(.*)/s).map((s) => s.trim()))
        .filter(([k, v]) => k && v),
    );
    create.mutate({
      workspaceId,
      name,
      provider,
      base_url: baseUrl,
      default_model: model,
      api_key: apiKey || null,
      headers: extra,
      requests_per_minute: perMinute ? Number(perMinute) : null,
    });
  };
  return (
    <form className={`card ${styles.connectionForm}`} onSubmit={submit} aria-label="Add model connection">
      <label className="col">
        <span className="faint">Name</span>
        <input className="input" value={name} onChange={(e) => setName(e.target.value)} required aria-label="Connection name" />
      </label>
      <label className="col">
        <span className="faint">Provider</span>
        <select className="select" value={provider} onChange={(e) => pick(e.target.value as "openai" | "anthropic")} aria-label="Provider">
          <option value="openai">OpenAI-compatible</option>
          <option value="anthropic">Anthropic</option>
        </select>
      </label>
      <label className="col">
        <span className="faint">Base URL</span>
        <input className="input" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} required aria-label="Base URL" />
      </label>
      <label className="col">
        <span className="faint">Default model</span>
        <input className="input" value={model} onChange={(e) => setModel(e.target.value)} required aria-label="Default model" />
      </label>
      <label className="col">
        <span className="faint">API key (stored encrypted, never shown again)</span>
        <input
          className="input"
          type="password"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          autoComplete="off"
          aria-label="API key"
        />
      </label>
      <label className="col">
        <span className="faint">Extra headers (Name: value, one per line)</span>
        <textarea className="textarea" rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} aria-label="Extra headers" />
      </label>
      <label className="col">
        <span className="faint">Calls per minute (optional limit)</span>
        <input
          className="input"
          type="number"
          min={1}
          value={perMinute}
          onChange={(e) => setPerMinute(e.target.value)}
          aria-label="Calls per minute"
        />
      </label>
      <div className="row" style={{ gridColumn: "1 / -1" }}>
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !name.trim()}>
          Add connection
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
