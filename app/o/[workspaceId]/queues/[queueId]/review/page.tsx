"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { use, useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { RunDetail } from "../../../_components/run-detail";
import { TraceOutline } from "../../../projects/[projectId]/trace-outline";
import { EmptyState, ErrorState, LoadingState } from "../../../_components/ui";
import { ProgressBar } from "../../../_components/progress-bar";
import styles from "../../queues.module.css";
import { DatasetPanel } from "./dataset-panel";
import { PairedRuns, PreferenceForm, type PreferenceAnswer } from "./pairwise";
import { RubricForm, type Answer } from "./rubric-form";

/**
 * A reviewer's workspace: one run at a time (reserved for them), its trace as a tree (any step
 * opens below it: conversation, tool results), its reference output, beside the rubric; in a
 * pairwise queue two runs side by side and an A / B / equal choice per rubric question. The runs seen in this visit are a history that ←/→ walk through; →
 * past the end asks for the next run.
 */
export default function ReviewPage({ params }: { params: Promise<{ workspaceId: string; queueId: string }> }) {
  const { workspaceId, queueId } = use(params);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const opened = useSearchParams().get("item");
  // The visit's history and where in it the reviewer is, updated as one so that a late callback
  // (a submission's success, a key pressed while the next run is drawn) never acts on an old copy.
  const [nav, setNav] = useState<{ history: string[]; position: number }>({ history: opened ? [opened] : [], position: 0 });
  const navRef = useRef(nav);
  navRef.current = nav;
  const drawing = useRef(false);
  const { history, position } = nav;
  const [finished, setFinished] = useState(false);
  const [datasetOpen, setDatasetOpen] = useState(false);
  // The step of the trace shown beside the rubric (the reviewed run unless another was picked in the tree).
  const [shownRun, setShownRun] = useState<{ item: string; run: string } | null>(null);
  const queue = useQuery(trpc.queues.get.queryOptions({ workspaceId, queueId }));
  const itemId = history[position];
  const review = useQuery({ ...trpc.queues.review.queryOptions({ workspaceId, queueId, itemId }), enabled: !!itemId });

  const next = useCallback(async () => {
    const at = navRef.current;
    if (at.position < at.history.length - 1) return setNav((n) => ({ ...n, position: Math.min(n.position + 1, n.history.length - 1) }));
    if (drawing.current) return;
    drawing.current = true;
    try {
      const drawn = await queryClient.fetchQuery({ ...trpc.queues.review.queryOptions({ workspaceId, queueId }), staleTime: 0 });
      if (!drawn) return setFinished(true);
      queryClient.setQueryData(trpc.queues.review.queryKey({ workspaceId, queueId, itemId: drawn.item_id }), drawn);
      setFinished(false);
      setNav((n) => {
        const kept = n.history.slice(0, n.position + 1).filter((id) => id !== drawn.item_id);
        return { history: [...kept, drawn.item_id], position: kept.length };
      });
    } finally {
      drawing.current = false;
    }
  }, [queryClient, queueId, trpc, workspaceId]);
  const previous = () => setNav((n) => ({ ...n, position: Math.max(0, n.position - 1) }));

  useEffect(() => {
    if (history.length === 0 && !finished) void next();
  }, [history.length, finished, next]);

  const afterSubmit = async (submitted: string) => {
    setDatasetOpen(false);
    await queryClient.invalidateQueries({ queryKey: trpc.queues.get.queryKey({ workspaceId, queueId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.queues.review.queryKey({ workspaceId, queueId, itemId: submitted }) });
    await next();
  };
  const submit = useMutation(trpc.queues.submit.mutationOptions({ onSuccess: (_, { itemId: submitted }) => void afterSubmit(submitted) }));
  const send = (answers: Answer[], comment: string, skip = false) =>
    submit.mutate({ workspaceId, queueId, itemId, answers: skip ? [] : answers, comment: comment.trim() || null, skip });
  const prefer = (preferences: PreferenceAnswer[], comment: string) =>
    submit.mutate({ workspaceId, queueId, itemId, preferences, comment: comment.trim() || null });

  if (queue.isPending) return <LoadingState label="Loading queue…" />;
  if (queue.error) return <ErrorState error={queue.error} retry={() => queue.refetch()} />;
  const q = queue.data;
  const header = (
    <div className="page-header">
      <div>
        <div className="faint">
          <Link href={`/o/${workspaceId}/queues`}>Annotation queues</Link> /{" "}
          <Link href={`/o/${workspaceId}/queues/${queueId}`}>{q.name}</Link> /
        </div>
        <h1>Review</h1>
      </div>
      <div className={styles.toolbar}>
        <span className="muted">{q.progress.needs_my_review} left for you</span>
        <ProgressBar done={q.progress.completed} total={q.progress.total} />
      </div>
    </div>
  );
  if (finished && position >= history.length - 1 && !review.data)
    return (
      <div className="page">
        {header}
        <EmptyState
          title="Nothing left for you here"
          action={
            <Link className="btn" href={`/o/${workspaceId}/queues/${queueId}`}>
              Back to the queue
            </Link>
          }
        >
          Every run is done, reviewed by you, or held by another reviewer right now.
        </EmptyState>
      </div>
    );
  if (!itemId || review.isPending)
    return (
      <div className="page">
        {header}
        <LoadingState label="Finding the next run…" />
      </div>
    );
  if (review.error)
    return (
      <div className="page">
        {header}
        <ErrorState error={review.error} retry={() => review.refetch()} />
      </div>
    );
  const r = review.data;
  const shown = r && shownRun?.item === r.item_id ? shownRun.run : r?.run.id;
  if (!r || !shown)
    return (
      <div className="page">
        {header}
        <EmptyState title="This run is no longer in the queue" />
      </div>
    );
  if (r.queue_type === "pairwise")
    return (
      <div className="page" data-testid="review">
        {header}
        <div className={styles.pairwise}>
          <div>
            {r.reference_outputs && (
              <div className={`card ${styles.reference}`} data-testid="reference-outputs">
                <b>Reference output</b>
                <pre>{JSON.stringify(r.reference_outputs, null, 2)}</pre>
              </div>
            )}
            <PairedRuns workspaceId={workspaceId} review={r} />
          </div>
          <PreferenceForm
            key={r.item_id}
            queue={q}
            review={r}
            busy={submit.isPending}
            error={submit.error?.message ?? null}
            onSubmit={prefer}
            onSkip={() => send([], "", true)}
          />
        </div>
      </div>
    );
  return (
    <div className="page" data-testid="review">
      {header}
      {finished && (
        <div className="badge badge-ok" role="status">
          That was the last run for you.
        </div>
      )}
      <div className={styles.review}>
        <div>
          {datasetOpen && (
            <DatasetPanel
              workspaceId={workspaceId}
              queueId={queueId}
              itemId={r.item_id}
              defaultDataset={q.default_dataset}
              outputs={r.run.outputs}
              onClose={() => setDatasetOpen(false)}
            />
          )}
          {r.reference_outputs && (
            <div className={`card ${styles.reference}`} data-testid="reference-outputs">
              <b>Reference output</b>
              <pre>{JSON.stringify(r.reference_outputs, null, 2)}</pre>
            </div>
          )}
          <TraceOutline
            key={`outline-${r.item_id}`}
            workspaceId={workspaceId}
            traceId={r.run.trace_id}
            selectedId={shown}
            onSelect={(id) => setShownRun({ item: r.item_id, run: id })}
          />
          {shown !== r.run.id && (
            <div className="row" style={{ margin: "8px 0" }} data-testid="viewing-child">
              <span className="muted">Showing a step of the trace; the review is of the whole run.</span>
              <button type="button" className="btn btn-sm" onClick={() => setShownRun(null)}>
                Back to the reviewed run
              </button>
            </div>
          )}
          <RunDetail key={shown} workspaceId={workspaceId} runId={shown} blind={r.my_status !== "completed"} />
        </div>
        <RubricForm
          key={r.item_id}
          queue={q}
          review={r}
          busy={submit.isPending}
          error={submit.error?.message ?? null}
          onSubmit={(answers, comment) => send(answers, comment)}
          onSkip={() => send([], "", true)}
          onPrevious={previous}
          onNext={() => void next()}
          onDataset={() => setDatasetOpen(true)}
        />
      </div>
    </div>
  );
}
