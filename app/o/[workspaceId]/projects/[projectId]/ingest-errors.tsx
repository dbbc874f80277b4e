"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime } from "../../_components/format";
import styles from "./runs.module.css";

/**
 * Runs sent to this project that could not be stored (the rest of their request was): a quiet
 * warning line while there are any, opening to each run's id and the reason it was refused.
 */
export function IngestErrors({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const errors = useQuery({ ...trpc.projects.ingestErrors.queryOptions({ workspaceId, projectId }), refetchInterval: 30_000 });
  const list = errors.data ?? [];
  if (list.length === 0) return null;
  return (
    <div className={styles.ingestErrors} data-testid="ingest-errors">
      <button type="button" className={styles.ingestErrorsToggle} aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden>⚠</span>
        {list.length === 50 ? "50+" : list.length} {list.length === 1 ? "run was" : "runs were"} refused at ingest, the latest{" "}
        {relativeTime(list[0]!.created_at)}
        <span className="faint">{open ? "Hide" : "Show why"}</span>
      </button>
      {open ? (
        <ul className={styles.ingestErrorList}>
          {list.map((e) => (
            <li key={e.id}>
              <span className="mono truncate" title={e.run_id}>
                {e.run_id}
              </span>
              <span>{e.detail}</span>
              <time className="faint" dateTime={e.created_at ?? undefined} title={formatExactTime(e.created_at) ?? undefined}>
                {relativeTime(e.created_at)}
              </time>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
