"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime } from "../format";
import { EmptyState, ErrorState, LoadingState } from "../ui";
import styles from "./settings.module.css";

function NewKey({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className={styles.secret} role="status" data-testid="new-api-key">
      <strong>Copy your new key now: it will not be shown again.</strong>
      <div className="row">
        <code className={styles.secretValue} data-testid="api-key-value">
          {secret}
        </code>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

export function ApiKeys({ workspaceId, role }: { workspaceId: string; role: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.settings.apiKeys.list.queryOptions({ workspaceId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.settings.apiKeys.list.queryKey({ workspaceId }) });
  const [description, setDescription] = useState("");
  const [kind, setKind] = useState<"personal" | "service">("personal");
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation(
    trpc.settings.apiKeys.create.mutationOptions({
      onSuccess: (made) => {
        setSecret(made.key);
        setDescription("");
        refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.settings.apiKeys.revoke.mutationOptions({ onSuccess: refresh }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ workspaceId, key: { description: description.trim(), kind } });
  };
  return (
    <section className={styles.section} aria-labelledby="keys-title">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="keys-title">API keys</h2>
          <p className="muted">
            Keys let SDKs and OpenTelemetry exporters send traces. Personal keys act with your role; service keys belong to the workspace.
          </p>
        </div>
      </div>
      <form className={styles.inlineForm} onSubmit={submit}>
        <input
          className="input grow"
          placeholder="What is this key for?"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          aria-label="Key description"
          maxLength={500}
        />
        <select className="select" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} aria-label="Key kind">
          <option value="personal">Personal key</option>
          {role === "admin" && <option value="service">Service key (admin)</option>}
        </select>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {create.error && (
        <div className="err-text" role="alert">
          {create.error.message}
        </div>
      )}
      {secret && <NewKey secret={secret} onDone={() => setSecret(null)} />}
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No API keys">Create one to send traces from your code.</EmptyState>
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="api-keys">
            <thead>
              <tr>
                <th>Description</th>
                <th>Key</th>
                <th>Kind</th>
                <th>Role</th>
                <th>Created</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.data.map((k) => (
                <tr key={k.id}>
                  <td className="truncate" style={{ maxWidth: 280 }}>
                    {k.description || <span className="faint">no description</span>}
                  </td>
                  <td>
                    <code>{k.short_key}</code>
                  </td>
                  <td>{k.kind}</td>
                  <td>{k.role}</td>
                  <td title={formatExactTime(k.created_at)}>{relativeTime(k.created_at)}</td>
                  <td>{k.last_used_at ? relativeTime(k.last_used_at) : <span className="faint">never</span>}</td>
                  <td className="num">
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost btn-danger"
                      disabled={revoke.isPending}
                      onClick={() => {
                        if (confirm(`Revoke the key ${k.short_key}? Clients using it stop working within seconds.`))
                          revoke.mutate({ workspaceId, id: k.id });
                      }}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoke.error && (
        <div className="err-text" role="alert">
          {revoke.error.message}
        </div>
      )}
    </section>
  );
}
