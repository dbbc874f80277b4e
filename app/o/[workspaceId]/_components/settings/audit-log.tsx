"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { download } from "../download";
import { formatExactTime, relativeTime } from "../format";
import { EmptyState, ErrorState, LoadingState } from "../ui";
import styles from "./settings.module.css";

/** A before/after summary as one short line; the whole JSON is in the cell's title. */
function Change({ before, after }: { before: unknown; after: unknown }) {
  const line = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v));
  const text = [line(before), line(after)].filter(Boolean).join(" → ");
  return (
    <span className="truncate mono" style={{ display: "block", maxWidth: 380 }} title={text}>
      {text || <span className="faint">—</span>}
    </span>
  );
}

function Retention({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.audit.settings.queryOptions({ workspaceId }));
  const [days, setDays] = useState("");
  const save = useMutation(
    trpc.audit.setRetention.mutationOptions({
      onSuccess: () => {
        setDays("");
        void queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ workspaceId, retention_days: Number(days) });
  };
  return (
    <form className={styles.inlineForm} onSubmit={submit} aria-label="Audit log retention">
      <span className="muted">
        Entries are kept for <strong data-testid="audit-retention">{settings.data?.retention_days ?? "…"}</strong> days.
      </span>
      <input
        className="input"
        type="number"
        min={1}
        max={3650}
        placeholder="Days"
        value={days}
        onChange={(e) => setDays(e.target.value)}
        aria-label="Retention in days"
        style={{ width: 100 }}
      />
      <button type="submit" className="btn btn-sm" disabled={!days || save.isPending}>
        Set retention
      </button>
      {save.error && (
        <span className="err-text" role="alert">
          {save.error.message}
        </span>
      )}
    </form>
  );
}

export function AuditLog({ workspaceId, role }: { workspaceId: string; role: string }) {
  const trpc = useTRPC();
  const [action, setAction] = useState("");
  const [actor, setActor] = useState("");
  const filters = { action: action.trim() || undefined, actor: actor.trim() || undefined };
  const entries = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { workspaceId, ...filters, limit: 50 },
      { getNextPageParam: (last) => last.next_cursor ?? undefined, enabled: role === "admin", placeholderData: (prev) => prev },
    ),
  );
  const exporter = useMutation(
    trpc.audit.export.mutationOptions({
      onSuccess: (file, input) => download(`audit-log.${input.format}`, file.contentType, file.text),
    }),
  );
  if (role !== "admin") return <EmptyState title="Admins only">Only workspace admins can read the audit log.</EmptyState>;
  const rows = entries.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className={styles.section} aria-labelledby="audit-title">
      <div className={styles.sectionHead}>
        <h2 id="audit-title">Audit log</h2>
        <p className="muted">
          Who changed what: sign-ins, members, roles, keys, connections, prices, rules, evaluators, webhooks, retention, deletions and SQL
          queries. Entries cannot be changed or deleted; they expire after the retention below.
        </p>
      </div>
      <Retention workspaceId={workspaceId} />
      <div className={styles.inlineForm}>
        <input
          className="input"
          placeholder="Action, e.g. api_key.* or member.role.update"
          value={action}
          onChange={(e) => setAction(e.target.value)}
          aria-label="Filter by action"
          style={{ width: 300 }}
        />
        <input
          className="input"
          placeholder="Actor id (user or API key)"
          value={actor}
          onChange={(e) => setActor(e.target.value)}
          aria-label="Filter by actor"
          style={{ width: 300 }}
        />
        <span className="grow" />
        <button
          type="button"
          className="btn btn-sm"
          disabled={exporter.isPending}
          onClick={() => exporter.mutate({ workspaceId, ...filters, format: "csv" })}
        >
          Export CSV
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={exporter.isPending}
          onClick={() => exporter.mutate({ workspaceId, ...filters, format: "jsonl" })}
        >
          Export JSONL
        </button>
      </div>
      {entries.isPending ? (
        <LoadingState />
      ) : entries.error ? (
        <ErrorState error={entries.error} retry={() => entries.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No entries">Nothing matches these filters yet.</EmptyState>
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="audit-log">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>From</th>
                <th>Action</th>
                <th>Target</th>
                <th>Change</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td title={formatExactTime(e.at)}>{relativeTime(e.at)}</td>
                  <td className="truncate" style={{ maxWidth: 220 }} title={e.actor.id ?? undefined}>
                    {e.actor.label ?? e.actor.id ?? <span className="faint">{e.actor.kind}</span>}
                    {e.actor.kind === "api_key" && <span className="faint"> · key</span>}
                  </td>
                  <td className="mono">{e.ip ?? <span className="faint">—</span>}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td className="truncate mono" style={{ maxWidth: 200 }} title={e.target_id ?? undefined}>
                    {e.target_type ? `${e.target_type} ${e.target_id ? e.target_id.slice(0, 8) : ""}` : <span className="faint">—</span>}
                  </td>
                  <td>
                    <Change before={e.before} after={e.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries.hasNextPage && (
        <button type="button" className="btn btn-sm" disabled={entries.isFetchingNextPage} onClick={() => void entries.fetchNextPage()}>
          {entries.isFetchingNextPage ? "Loading…" : "Older entries"}
        </button>
      )}
      {exporter.error && (
        <div className="err-text" role="alert">
          {exporter.error.message}
        </div>
      )}
    </section>
  );
}
