"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RunFull } from "@/app/trpc-types";
import { ConversationView } from "./conversation/conversation";
import { formatExactTime, formatTime } from "./format";
import { ErrorState, LoadingState, RunTypeBadge, Spinner, StatusBadge } from "./ui";
import { AddToDataset } from "./run-detail/add-to-dataset";
import { AddToQueue } from "./run-detail/add-to-queue";
import { FeedbackPanel } from "./run-detail/feedback";
import { EventsSection, InputsOutputs, MetadataSection, RunError } from "./run-detail/sections";
import { UsagePanel } from "./run-detail/usage";
import styles from "./run-detail/run-detail.module.css";

type Tab = "main" | "feedback" | "metadata" | "events";

function MainTab({ run, conversation }: { run: RunFull; conversation: ReturnType<typeof useConversation> }) {
  const [raw, setRaw] = useState(false);
  const data = conversation.data;
  const hasMessages = !!data && (data.conversation.input.length > 0 || data.conversation.output.length > 0);
  const asConversation = run.run_type === "llm" || hasMessages;
  if (!asConversation) return <InputsOutputs run={run} />;
  return (
    <div className={styles.sectionBody}>
      <div className="row">
        <div className="segmented" role="group" aria-label="View">
          <button type="button" aria-pressed={!raw} onClick={() => setRaw(false)}>
            Messages
          </button>
          <button type="button" aria-pressed={raw} onClick={() => setRaw(true)}>
            JSON
          </button>
        </div>
      </div>
      {raw ? (
        <InputsOutputs run={run} />
      ) : conversation.isPending ? (
        <Spinner label="Reading messages…" />
      ) : conversation.error ? (
        <ErrorState error={conversation.error} retry={() => conversation.refetch()} />
      ) : (
        <ConversationView
          conversation={conversation.data!.conversation}
          raw={{ inputs: run.inputs, outputs: run.outputs, extra: run.extra }}
        />
      )}
    </div>
  );
}

function useConversation(workspaceId: string, runId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.conversation.get.queryOptions({ workspaceId, runId }));
}

/**
 * The detail of one run, beside the runs table and the trace tree. Everything from the trace is
 * rendered as text or React elements, never inserted as HTML.
 *
 * Everything about one run: conversation or inputs/outputs, tokens and cost, error, metadata, events, feedback.
 * `blind` (a reviewer in a queue) leaves out others' feedback until the reviewer has answered. */
export function RunDetail({
  workspaceId,
  runId,
  blind = false,
  lead,
}: {
  workspaceId: string;
  runId: string;
  blind?: boolean;
  /** Shown before the run's name (a pairwise review's side, A or B). */
  lead?: ReactNode;
}) {
  const trpc = useTRPC();
  const runQuery = useQuery(trpc.runs.get.queryOptions({ workspaceId, runId }));
  const conversation = useConversation(workspaceId, runId);
  const [tab, setTab] = useState<Tab>("main");
  if (runQuery.isPending) return <LoadingState label="Loading run…" />;
  if (runQuery.error) return <ErrorState error={runQuery.error} title="Could not load this run" retry={() => runQuery.refetch()} />;
  const run = runQuery.data;
  const events = Array.isArray(run.events) ? run.events.length : 0;
  const feedbackCount = Object.values(run.feedback_stats ?? {}).reduce((n, s) => n + (s?.n ?? 0), 0);
  const convo = conversation.data?.conversation;
  const mainLabel = run.run_type === "llm" || (convo && convo.input.length + convo.output.length > 0) ? "Conversation" : "Input & output";
  const tabs: [Tab, string][] = [
    ["main", mainLabel],
    ...(blind ? [] : [["feedback", feedbackCount ? `Feedback (${feedbackCount})` : "Feedback"] as [Tab, string]]),
    ["metadata", "Metadata"],
    ["events", events ? `Events (${events})` : "Events"],
  ];
  return (
    <div className={styles.detail} data-testid="run-detail">
      <header className={styles.header}>
        <div className={styles.headerRow}>
          <div className="row grow" style={{ flexWrap: "wrap" }}>
            {lead}
            <h2 className={styles.title}>{run.name}</h2>
            <RunTypeBadge runType={run.run_type} />
            <StatusBadge status={run.status} error={run.error} />
            {run.tags.slice(0, 6).map((t) => (
              <span key={t} className="badge">
                {t}
              </span>
            ))}
            {run.tags.length > 6 && <span className="faint">+{run.tags.length - 6}</span>}
          </div>
          {run.run_type === "llm" && !blind && (
            <Link className="btn btn-sm" href={`/o/${workspaceId}/playground?run=${run.id}`}>
              Open in playground
            </Link>
          )}
          {!blind && <AddToQueue workspaceId={workspaceId} runIds={[run.id]} />}
          <AddToDataset workspaceId={workspaceId} runIds={[run.id]} />
        </div>
        <div className={styles.subline}>
          <span title={formatExactTime(run.start_time)}>{formatTime(run.start_time)}</span>
          <code title="Run ID">{run.id}</code>
        </div>
      </header>
      {run.error && <RunError error={run.error} />}
      <UsagePanel run={run} details={conversation.data?.details} />
      <nav className={styles.tabs} role="tablist">
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={styles.tab} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </nav>
      <div role="tabpanel">
        {tab === "main" && <MainTab run={run} conversation={conversation} />}
        {tab === "feedback" && <FeedbackPanel workspaceId={workspaceId} runId={run.id} traceId={run.trace_id} />}
        {tab === "metadata" && <MetadataSection run={run} />}
        {tab === "events" && <EventsSection run={run} />}
      </div>
    </div>
  );
}
