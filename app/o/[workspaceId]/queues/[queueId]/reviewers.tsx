"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";

/**
 * Assigned reviewers: the workspace's members to tick. Annotators see and review only the queues
 * they are assigned to; other roles review any queue, unless it is reviewed by the assigned only.
 */
export function AssignedReviewers({ workspaceId, queueId, onlyAssigned }: { workspaceId: string; queueId: string; onlyAssigned: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const choices = useQuery(trpc.queues.reviewers.queryOptions({ workspaceId, queueId }));
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const save = useMutation(
    trpc.queues.setReviewers.mutationOptions({
      onSuccess: () => {
        setPicked(null);
        void queryClient.invalidateQueries({ queryKey: trpc.queues.reviewers.queryKey({ workspaceId, queueId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.queues.get.queryKey({ workspaceId, queueId }) });
      },
    }),
  );
  if (!choices.data) return null;
  const assigned = picked ?? new Set(choices.data.filter((c) => c.assigned).map((c) => c.user_id));
  const toggle = (id: string) => {
    const next = new Set(assigned);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPicked(next);
  };
  return (
    <div className="card" style={{ marginBottom: 16, padding: 12 }} data-testid="assigned-reviewers">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <b>Assigned reviewers</b>
        <span className="faint" data-testid="access-mode">
          {onlyAssigned
            ? "Only the assigned reviewers review this queue."
            : "Anyone who may review can review this queue (annotators: only if assigned)."}
        </span>
      </div>
      <div className="row" style={{ flexWrap: "wrap", gap: 12, margin: "8px 0" }}>
        {choices.data.map((c) => (
          <label key={c.user_id} className="row" style={{ gap: 6 }}>
            <input type="checkbox" checked={assigned.has(c.user_id)} onChange={() => toggle(c.user_id)} aria-label={`Assign ${c.name}`} />
            {c.name} <span className="faint">{c.role}</span>
          </label>
        ))}
      </div>
      <div className="row">
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={!picked || save.isPending}
          onClick={() => save.mutate({ workspaceId, queueId, userIds: [...assigned] })}
        >
          Save reviewers
        </button>
        {save.isSuccess && !picked && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
        {save.error && (
          <span className="err-text" role="alert">
            {save.error.message}
          </span>
        )}
      </div>
    </div>
  );
}
