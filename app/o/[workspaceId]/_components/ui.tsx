"use client";

import type { ReactNode } from "react";

/** Shared building blocks: loading, empty and error states, badges. Text only — never HTML from data. */

export function Spinner({ label }: { label?: string }) {
  return (
    <span className="row muted">
      <span className="spinner" aria-hidden />
      {label ? <span>{label}</span> : null}
    </span>
  );
}

export function LoadingState({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state">
      <div className="state-title">{title}</div>
      {children ? <div>{children}</div> : null}
      {action ? <div style={{ marginTop: 8 }}>{action}</div> : null}
    </div>
  );
}

/** Whether an error is the server saying the thing asked for does not exist (a tRPC NOT_FOUND / 404). */
export function isNotFound(error: unknown): boolean {
  const data = (error as { data?: { code?: string; httpStatus?: number } } | null)?.data;
  return data?.code === "NOT_FOUND" || data?.httpStatus === 404;
}

/**
 * An error as the server described it (tRPC errors carry the service's message). A 4xx will not
 * fix itself, so only other errors offer "Try again".
 */
export function ErrorState({ error, title = "Something went wrong", retry }: { error: unknown; title?: string; retry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  if (status !== undefined && status < 500) retry = undefined;
  return (
    <div className="state state-error" role="alert">
      <div className="state-title">{title}</div>
      <div>{message}</div>
      {retry ? (
        <button type="button" className="btn btn-sm" style={{ marginTop: 8 }} onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Something that is not there (deleted, expired by retention, or a wrong link), said plainly with a way back. */
export function MissingState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state" role="alert" data-testid="missing">
      <div className="state-title">{title}</div>
      {children ? <div>{children}</div> : null}
      {action ? <div style={{ marginTop: 8 }}>{action}</div> : null}
    </div>
  );
}

export function StatusBadge({ status, error }: { status: string; error?: string | null }) {
  if (error || status === "error")
    return (
      <span className="badge badge-error">
        <span className="dot dot-error" />
        Error
      </span>
    );
  if (status === "success")
    return (
      <span className="badge badge-ok">
        <span className="dot dot-ok" />
        Success
      </span>
    );
  return (
    <span className="badge badge-warn">
      <span className="dot dot-pending" />
      {status === "pending" ? "Running" : status}
    </span>
  );
}

const TYPE_COLORS: Record<string, string> = {
  llm: "var(--type-llm)",
  chain: "var(--type-chain)",
  tool: "var(--type-tool)",
  retriever: "var(--type-retriever)",
};

export function runTypeColor(runType: string): string {
  return TYPE_COLORS[runType] ?? "var(--type-other)";
}

export function RunTypeBadge({ runType }: { runType: string }) {
  const color = runTypeColor(runType);
  return (
    <span className="badge" style={{ color, background: "transparent", borderColor: "var(--border)" }}>
      {runType}
    </span>
  );
}
