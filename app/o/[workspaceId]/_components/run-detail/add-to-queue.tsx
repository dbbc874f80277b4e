"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import styles from "./run-detail.module.css";

/** Sends runs to an annotation queue for review. */
export function AddToQueue({ workspaceId, runIds, align = "right" }: { workspaceId: string; runIds: string[]; align?: "left" | "right" }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState("");
  const [done, setDone] = useState<{ id: string; name: string; added: number } | null>(null);
  const queues = useQuery({ ...trpc.queues.list.queryOptions({ workspaceId }), enabled: open });
  const add = useMutation(trpc.queues.addRuns.mutationOptions());
  const chosen = target || queues.data?.[0]?.id || "";
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await add.mutateAsync({ workspaceId, queueId: chosen, runIds });
    void queryClient.invalidateQueries({ queryKey: trpc.queues.pathKey() });
    setDone({ id: chosen, name: queues.data!.find((q) => q.id === chosen)!.name, added: result.added });
  };
  return (
    <div className="menu-wrap">
      <button type="button" className="btn btn-sm" aria-expanded={open} onClick={() => (setOpen(!open), setDone(null))}>
        Add to queue
      </button>
      {open && (
        <form
          className={`menu ${styles.popover} ${align === "left" ? styles.popoverLeft : ""}`}
          onSubmit={(e) => void submit(e).catch(() => undefined)}
          aria-label="Add to annotation queue"
        >
          {done ? (
            <div className="col" role="status">
              <span>
                In <Link href={`/o/${workspaceId}/queues/${done.id}`}>{done.name}</Link> for review.
              </span>
              <button type="button" className="btn btn-sm" onClick={() => setOpen(false)}>
                Close
              </button>
            </div>
          ) : queues.data?.length === 0 ? (
            <span>
              No queues yet: <Link href={`/o/${workspaceId}/queues`}>create one</Link>.
            </span>
          ) : (
            <>
              <label className={styles.field}>
                <span>Annotation queue</span>
                <select
                  className="select"
                  value={chosen}
                  onChange={(e) => setTarget(e.target.value)}
                  disabled={queues.isPending}
                  aria-label="Annotation queue"
                >
                  {(queues.data ?? []).map((q) => (
                    <option key={q.id} value={q.id}>
                      {q.name}
                    </option>
                  ))}
                </select>
              </label>
              {add.error && (
                <span className="err-text" role="alert">
                  {add.error.message}
                </span>
              )}
              <button type="submit" className="btn btn-primary" disabled={!chosen || add.isPending}>
                {add.isPending ? "Adding…" : runIds.length === 1 ? "Add run" : `Add ${runIds.length} runs`}
              </button>
            </>
          )}
        </form>
      )}
    </div>
  );
}
