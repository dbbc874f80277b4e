"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { hasListState, paramsFromState, showsState, stateFromParams, withView } from "./view-state";
import styles from "./list-controls.module.css";

type SetParams = (patch: Record<string, string | null>) => void;

/**
 * Opens the project's default view when the project is opened without list state in its address
 * (once per visit: clearing the filters afterwards stays cleared). Answers the list state the page
 * shows — the default view's as soon as it is known, before the address shows it, so the runs are
 * read once, with the view's state (the server's first read of the page does the same) — and
 * whether the list may be read: not until the default is known, so the unfiltered runs are not
 * read for nothing.
 */
export function useDefaultView(
  workspaceId: string,
  projectId: string,
  address: URLSearchParams,
  setParams: SetParams,
): { params: URLSearchParams; ready: boolean } {
  const trpc = useTRPC();
  const [initial] = useState(() => !hasListState(address));
  const [applied, setApplied] = useState(false);
  // The address takes the view a render or two after it is set; until then the page shows the
  // view as the address will.
  const [shown, setShown] = useState(false);
  const view = useQuery({ ...trpc.views.default.queryOptions({ workspaceId, projectId }), enabled: initial, retry: false });
  useEffect(() => {
    if (!initial || applied || !view.data) return;
    setApplied(true);
    setParams({ ...paramsFromState(view.data.state), saved: view.data.id });
  }, [initial, applied, view.data, setParams]);
  if (applied && !shown && address.get("saved") === view.data?.id) setShown(true);
  return {
    params: initial && !shown && view.data ? withView(address, view.data) : address,
    ready: !initial || view.isError || view.isSuccess,
  };
}

/** The "Views" menu: the project's saved views (shared and one's own), save the current one, a default. */
export function SavedViews({
  workspaceId,
  projectId,
  params,
  setParams,
  columns,
}: {
  workspaceId: string;
  projectId: string;
  params: URLSearchParams;
  setParams: SetParams;
  /** The runs table's columns as shown (kept with the view). */
  columns: string[];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listOptions = trpc.views.list.queryOptions({ workspaceId, projectId });
  const views = useQuery(listOptions);
  const role = useQuery(trpc.workspaces.current.queryOptions({ workspaceId })).data?.role;
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [shared, setShared] = useState(true);
  const [asDefault, setAsDefault] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: listOptions.queryKey });
    void queryClient.invalidateQueries({ queryKey: trpc.views.default.queryKey({ workspaceId, projectId }) });
  };
  const create = useMutation(
    trpc.views.create.mutationOptions({
      onSuccess: (view) => {
        refresh();
        setSaving(false);
        setName("");
        setParams({ saved: view.id, cols: view.state.columns?.join(",") ?? null });
      },
    }),
  );
  const update = useMutation(trpc.views.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.views.delete.mutationOptions({ onSuccess: refresh }));
  const viewer = role === "viewer";
  useEffect(() => {
    if (viewer) setShared(false);
  }, [viewer]);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  const list = views.data ?? [];
  const current = list.find((v) => v.id === params.get("saved"));
  const showing = current && showsState(params, current.state) ? current : null;
  const changed = current && !showing;
  const error = create.error ?? update.error ?? remove.error;

  return (
    <div className="menu-wrap" ref={ref}>
      <button
        type="button"
        className="btn"
        aria-expanded={open}
        aria-haspopup="menu"
        onClick={() => setOpen(!open)}
        data-testid="saved-views"
        title={current ? `View: ${current.name}${changed ? " (changed)" : ""}` : "Saved views"}
      >
        <svg width="13" height="13" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" aria-hidden>
          <path d="M4 2.5h8v11l-4-3-4 3z" strokeLinejoin="round" />
        </svg>
        <span className={styles.viewName} style={{ maxWidth: 160 }}>
          {current ? current.name : "Views"}
          {changed ? " •" : ""}
        </span>
      </button>
      {open ? (
        <div className={`menu ${styles.viewsMenu}`} role="menu" data-testid="saved-views-menu">
          <div className="menu-label">Saved views of this project</div>
          {views.isPending ? <div className="menu-row faint">Loading…</div> : null}
          {views.isSuccess && list.length === 0 ? <div className="menu-row faint">No saved views yet.</div> : null}
          {list.map((v) => (
            <div key={v.id} className={styles.viewItem}>
              <button
                type="button"
                className="menu-item"
                role="menuitem"
                aria-selected={v.id === showing?.id}
                onClick={() => {
                  setParams({ ...paramsFromState(v.state), saved: v.id, run: null, trace: null, thread: null });
                  setOpen(false);
                }}
              >
                <span className={styles.viewName}>{v.name}</span>
                {v.is_default ? <span className="badge badge-accent">default</span> : null}
                {v.shared ? null : <span className="badge">private</span>}
              </button>
              {v.editable && v.shared ? (
                <button
                  type="button"
                  className="btn btn-sm btn-ghost"
                  title={v.is_default ? "Stop opening this view by default" : "Open this view when the project opens"}
                  aria-label={v.is_default ? `Unset ${v.name} as default` : `Make ${v.name} the default`}
                  onClick={() => update.mutate({ workspaceId, id: v.id, is_default: !v.is_default })}
                >
                  {v.is_default ? "★" : "☆"}
                </button>
              ) : null}
              {v.editable ? (
                <button
                  type="button"
                  className="btn btn-sm btn-ghost"
                  aria-label={`Delete ${v.name}`}
                  onClick={() => {
                    if (v.id === current?.id) setParams({ saved: null });
                    remove.mutate({ workspaceId, id: v.id });
                  }}
                >
                  ✕
                </button>
              ) : null}
            </div>
          ))}
          <div className="menu-sep" />
          {changed && current.editable ? (
            <button
              type="button"
              className="menu-item"
              onClick={() => {
                update.mutate({ workspaceId, id: current.id, state: { ...stateFromParams(params), columns } });
                setParams({ cols: columns.join(",") });
              }}
            >
              Update “{current.name}” with what is shown
            </button>
          ) : null}
          {saving ? (
            <form
              className={styles.saveForm}
              onSubmit={(e) => {
                e.preventDefault();
                create.mutate({
                  workspaceId,
                  project_id: projectId,
                  name,
                  state: { ...stateFromParams(params), columns },
                  shared,
                  is_default: shared && asDefault,
                });
              }}
            >
              <input
                className="input"
                placeholder="Name of the view"
                value={name}
                onChange={(e) => setName(e.target.value)}
                aria-label="View name"
                autoFocus
                maxLength={120}
              />
              <label title={viewer ? "Viewers keep private views; a member or admin shares them." : undefined}>
                <input type="checkbox" checked={shared} disabled={viewer} onChange={(e) => setShared(e.target.checked)} />
                Share with the workspace
              </label>
              <label>
                <input type="checkbox" checked={shared && asDefault} disabled={!shared} onChange={(e) => setAsDefault(e.target.checked)} />
                Open by default for this project
              </label>
              <div className="row" style={{ justifyContent: "flex-end" }}>
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => setSaving(false)}>
                  Cancel
                </button>
                <button type="submit" className="btn btn-sm btn-primary" disabled={!name.trim() || create.isPending}>
                  Save view
                </button>
              </div>
            </form>
          ) : (
            <button type="button" className="menu-item" onClick={() => setSaving(true)} data-testid="save-view">
              Save current filters, columns, sort and range…
            </button>
          )}
          {error ? (
            <div className="menu-row err-text" role="alert">
              {error.message}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
