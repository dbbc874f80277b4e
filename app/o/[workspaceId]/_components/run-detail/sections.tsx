"use client";

import { useState } from "react";
import type { RunFull } from "@/app/trpc-types";
import { JsonView } from "../conversation/json-view";
import { FieldsView } from "./fields";
import { formatExactTime, secondsBetween, formatLatency } from "../format";
import styles from "./run-detail.module.css";

/** The error's first line as a title, the whole text (stack) below in a pre, folded when long. */
export function RunError({ error }: { error: string }) {
  const [first, ...rest] = error.split("\n");
  const long = rest.length > 12;
  const [open, setOpen] = useState(!long);
  const [copied, setCopied] = useState(false);
  return (
    <div className={styles.error} role="alert" data-testid="run-error">
      <div className={styles.errorHead}>
        <div className={styles.errorTitle}>{first}</div>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => void navigator.clipboard?.writeText(error).then(() => setCopied(true))}
          data-testid="copy-error"
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {rest.length > 0 && (
        <>
          <pre className={styles.stack} data-open={open ? "" : undefined}>
            {rest.join("\n")}
          </pre>
          {long && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOpen(!open)}>
              {open ? "Fold stack" : `Show full stack (${rest.length} lines)`}
            </button>
          )}
        </>
      )}
    </div>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** Ids, times, tags, metadata, invocation parameters and the rest of `extra`. */
export function MetadataSection({ run }: { run: RunFull }) {
  const { metadata, invocation_params, runtime, ...rest } = run.extra ?? {};
  return (
    <div className={styles.sectionBody}>
      <dl className={styles.fields}>
        <Field label="Run ID">
          <code>{run.id}</code>
        </Field>
        <Field label="Trace ID">
          <code>{run.trace_id}</code>
        </Field>
        {run.parent_run_id && (
          <Field label="Parent run">
            <code>{run.parent_run_id}</code>
          </Field>
        )}
        {run.thread_id && (
          <Field label="Thread">
            <code>{run.thread_id}</code>
          </Field>
        )}
        {run.reference_example_id && (
          <Field label="Reference example">
            <code>{run.reference_example_id}</code>
          </Field>
        )}
        <Field label="Start">
          <span title={run.start_time}>{formatExactTime(run.start_time)}</span>
        </Field>
        <Field label="End">{run.end_time ? formatExactTime(run.end_time) : <span className="muted">running</span>}</Field>
        <Field label="Tags">
          {run.tags.length ? (
            <span className="row" style={{ flexWrap: "wrap", gap: 4 }}>
              {run.tags.map((t) => (
                <span key={t} className="badge">
                  {t}
                </span>
              ))}
            </span>
          ) : (
            <span className="muted">none</span>
          )}
        </Field>
      </dl>
      {metadata && Object.keys(metadata).length > 0 && <JsonView value={metadata} title="Metadata" />}
      {invocation_params !== undefined && <JsonView value={invocation_params} title="Invocation parameters" />}
      {runtime !== undefined && <JsonView value={runtime} title="Runtime" />}
      {Object.keys(rest).length > 0 && <JsonView value={rest} title="Extra" />}
      {run.serialized != null && <JsonView value={run.serialized} title="Serialized" />}
    </div>
  );
}

const MAX_EVENTS = 300;

/** The run's events (streamed tokens, retries, custom events) with their offset from the start. */
/** A streamed token's text (whitespace made visible), or the event's arguments as JSON. */
function EventDetails({ event, first }: { event: { name?: string; kwargs?: unknown }; first: boolean }) {
  const kwargs = event.kwargs as { token?: unknown; chunk?: unknown; idx?: unknown } | undefined;
  if (event.name === "new_token") {
    // The langsmith SDKs leave the token's text out of the events they upload.
    if (typeof kwargs?.token !== "string")
      return (
        <span className="faint" title="The client that sent this run left the token's text out of its events.">
          {first ? "first token · text not sent" : "text not sent"}
        </span>
      );
    return (
      <span className={styles.token} data-testid="event-token" title={JSON.stringify(kwargs.token)}>
        {kwargs.token === "" ? <span className="faint">(empty)</span> : kwargs.token.replace(/ /g, "·").replace(/\n/g, "↵")}
      </span>
    );
  }
  return kwargs === undefined ? null : <code>{JSON.stringify(kwargs).slice(0, 300)}</code>;
}

export function EventsSection({ run }: { run: RunFull }) {
  const events = (Array.isArray(run.events) ? run.events : []) as { name?: string; time?: string; kwargs?: unknown }[];
  if (events.length === 0) return <p className="muted">No events recorded.</p>;
  const tokens = events.flatMap((e) => {
    const token = (e.kwargs as { token?: unknown } | undefined)?.token;
    return e.name === "new_token" && typeof token === "string" ? [token] : [];
  });
  return (
    <div className={styles.sectionBody}>
      {tokens.length > 1 && (
        <div data-testid="streamed-text">
          <h3 className={styles.sectionTitle}>Streamed text ({tokens.length} tokens)</h3>
          <p className={styles.streamed}>{tokens.join("")}</p>
        </div>
      )}
      <table className={`table ${styles.events}`}>
        <thead>
          <tr>
            <th>Event</th>
            <th className="num">At</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {events.slice(0, MAX_EVENTS).map((e, i) => (
            <tr key={i}>
              <td>{String(e.name ?? "event")}</td>
              <td className="num" title={e.time}>
                {e.time
                  ? `+${formatLatency(Math.max(0, secondsBetween(run.start_time, typeof e.time === "string" && !/[zZ]|[+-]\d\d:?\d\d$/.test(e.time) ? `${e.time}Z` : e.time) ?? 0))}`
                  : "–"}
              </td>
              <td className={styles.eventKwargs}>
                <EventDetails event={e} first={e.name === "new_token" && events.findIndex((x) => x.name === "new_token") === i} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.length > MAX_EVENTS && <p className="muted">{events.length - MAX_EVENTS} more events not shown.</p>}
    </div>
  );
}

/** Inputs and outputs as JSON trees, and the run's attachments as links. */
export function InputsOutputs({ run }: { run: RunFull }) {
  const attachments = Object.entries(run.s3_urls ?? {});
  return (
    <div className={styles.sectionBody} data-testid="inputs-outputs">
      <FieldsView value={run.inputs ?? null} title="Inputs" />
      <FieldsView value={run.outputs ?? null} title="Outputs" />
      {attachments.length > 0 && (
        <div>
          <h3 className={styles.sectionTitle}>Attachments</h3>
          <ul className={styles.attachments}>
            {attachments.map(([name, link]) => (
              <li key={name}>
                {/^https?:\/\//i.test(link.presigned_url) ||
                (link.presigned_url.startsWith("/") && !link.presigned_url.startsWith("//")) ? (
                  <a href={link.presigned_url} target="_blank" rel="noopener noreferrer">
                    {name.replace(/^attachment\./, "")}
                  </a>
                ) : (
                  <span>{name}</span>
                )}
                <span className="faint"> {link.mime_type}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
