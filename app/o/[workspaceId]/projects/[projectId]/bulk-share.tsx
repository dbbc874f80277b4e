"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";

/** Public read-only links for the ticked runs' traces: create them all, copy them, or revoke them. */
export function BulkShare({ workspaceId, runIds }: { workspaceId: string; runIds: string[] }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const share = useMutation(trpc.sharing.shareRuns.mutationOptions());
  const unshare = useMutation(trpc.sharing.unshareRuns.mutationOptions({ onSuccess: () => share.reset() }));
  const ids = runIds.slice(0, 100);
  // Runs of one trace share the trace's link: each link is listed once.
  const urls = [...new Set(share.data?.map((link) => `${window.location.origin}/public/${link.share_token}/r`))];
  const copy = async () => {
    await navigator.clipboard.writeText(urls.join("\n"));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="menu-wrap">
      <button type="button" className="btn btn-sm" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="bulk-share">
        Share
      </button>
      {open ? (
        <div className="menu" style={{ left: 0, width: 460, padding: 12 }} role="dialog" aria-label="Share selected runs">
          {urls.length ? (
            <div className="col" style={{ gap: 8 }}>
              <span className="muted">
                {urls.length === 1
                  ? "Anyone with this link can view the trace, read-only."
                  : `${urls.length} traces: anyone with one of these links can view that trace, read-only.`}
              </span>
              <textarea
                className="input mono"
                readOnly
                rows={Math.min(8, urls.length) + 1}
                wrap="off"
                value={urls.join("\n")}
                aria-label="Public links"
                data-testid="bulk-share-urls"
                style={{ whiteSpace: "pre", fontSize: 12 }}
              />
              <div className="row">
                <button type="button" className="btn btn-sm" onClick={copy}>
                  {copied ? "Copied" : `Copy ${urls.length === 1 ? "link" : `${urls.length} links`}`}
                </button>
                <span className="grow" />
                <button
                  type="button"
                  className="btn btn-sm btn-danger"
                  disabled={unshare.isPending}
                  onClick={() => unshare.mutate({ workspaceId, runIds: ids })}
                >
                  Unshare all
                </button>
              </div>
            </div>
          ) : (
            <div className="col" style={{ gap: 8 }}>
              <span className="muted">
                Creates a public read-only link to the trace of each of the {ids.length} selected runs
                {runIds.length > 100 ? " (the first 100)" : ""}. Runs already shared keep their link.
              </span>
              <button
                type="button"
                className="btn btn-primary btn-sm"
                disabled={share.isPending}
                onClick={() => share.mutate({ workspaceId, runIds: ids })}
                data-testid="bulk-share-create"
              >
                {share.isPending ? "Sharing…" : "Create public links"}
              </button>
            </div>
          )}
          {share.error || unshare.error ? <span className="err-text">{(share.error ?? unshare.error)!.message}</span> : null}
        </div>
      ) : null}
    </div>
  );
}
