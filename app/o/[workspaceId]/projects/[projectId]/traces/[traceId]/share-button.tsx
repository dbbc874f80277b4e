"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/app/trpc-client";

/** Share the trace through a public read-only link: create, copy, revoke. */
export function ShareButton({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  // Closes on Escape, a click outside, or focus moving elsewhere (e.g. into Find).
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (wrap.current && !wrap.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", outside);
    document.addEventListener("focusin", outside);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", outside);
      document.removeEventListener("focusin", outside);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  const input = { workspaceId, kind: "run" as const, id: runId };
  const current = useQuery({ ...trpc.sharing.get.queryOptions(input), enabled: open });
  const refresh = () => client.invalidateQueries({ queryKey: trpc.sharing.get.queryKey(input) });
  const share = useMutation(trpc.sharing.share.mutationOptions({ onSuccess: refresh }));
  const unshare = useMutation(trpc.sharing.unshare.mutationOptions({ onSuccess: refresh }));
  const token = current.data?.share_token;
  const url = token ? `${window.location.origin}/public/${token}/r` : null;
  const copy = async () => {
    if (!url) return;
    await navigator.clipboard.writeText(url);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="menu-wrap" ref={wrap}>
      <button type="button" className="btn btn-sm" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="share-trace">
        {token ? "Shared" : "Share"}
      </button>
      {open ? (
        <div className="menu" style={{ left: "auto", right: 0, width: 380, padding: 12 }} role="dialog" aria-label="Share trace">
          {current.isPending ? (
            <span className="muted">Loading…</span>
          ) : url ? (
            <div className="col" style={{ gap: 8 }}>
              <span className="muted">Anyone with this link can view the trace, read-only.</span>
              <div className="row">
                <input
                  className="input grow mono"
                  readOnly
                  value={url}
                  aria-label="Public link"
                  data-testid="share-url"
                  onFocus={(e) => e.target.select()}
                />
                <button type="button" className="btn btn-sm" onClick={copy}>
                  {copied ? "Copied" : "Copy"}
                </button>
              </div>
              <div className="row">
                <a className="btn btn-sm btn-ghost" href={url} target="_blank" rel="noopener noreferrer">
                  Open
                </a>
                <span className="grow" />
                <button type="button" className="btn btn-sm btn-danger" disabled={unshare.isPending} onClick={() => unshare.mutate(input)}>
                  Unshare
                </button>
              </div>
            </div>
          ) : (
            <div className="col" style={{ gap: 8 }}>
              <span className="muted">This trace is private to the workspace. A public link shows it read-only to anyone who has it.</span>
              <button type="button" className="btn btn-primary btn-sm" disabled={share.isPending} onClick={() => share.mutate(input)}>
                Create public link
              </button>
            </div>
          )}
          {share.error || unshare.error ? <span className="err-text">{(share.error ?? unshare.error)!.message}</span> : null}
        </div>
      ) : null}
    </div>
  );
}
