"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import styles from "./get-started.module.css";

/** The environment lines that point the langsmith SDK and OpenTelemetry exporters at this server. */
export function envLines(origin: string, key: string): string {
  return [
    `export LANGSMITH_ENDPOINT=${origin}`,
    `export LANGSMITH_API_KEY=${key}`,
    "export LANGSMITH_TRACING=true",
    "",
    "# or any OpenTelemetry exporter (OTLP over HTTP)",
    `export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${origin}/otel/v1/traces`,
    `export OTEL_EXPORTER_OTLP_HEADERS="x-api-key=${key}"`,
  ].join("\n");
}

/** What an empty workspace offers: a key made in place and the lines to paste, with this server's address. */
export function GetStarted({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const [copied, setCopied] = useState(false);
  const create = useMutation(trpc.settings.apiKeys.create.mutationOptions());
  const key = create.data?.key;
  const lines = envLines(typeof window === "undefined" ? "" : window.location.origin, key ?? "<create a key>");
  const copy = async () => {
    await navigator.clipboard.writeText(lines);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className={styles.panel} data-testid="get-started">
      <div>
        <h2>Send your first trace</h2>
        <p className="muted">
          No traces here yet. Create an API key, paste these lines into the shell that runs your app, and run it: its project appears on
          this page within seconds.
        </p>
      </div>
      <ol className={styles.steps}>
        <li>
          {key ? (
            <span className="muted">Key created. It is in the lines below and will not be shown again.</span>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              disabled={create.isPending}
              onClick={() => create.mutate({ workspaceId, key: { description: "First traces (projects page)" } })}
            >
              {create.isPending ? "Creating…" : "Create an API key"}
            </button>
          )}
          {create.error ? (
            <span className="err-text" role="alert">
              {" "}
              {create.error.message}
            </span>
          ) : null}
        </li>
        <li>
          <div className={styles.code}>
            <div className={styles.codeBar}>
              <span>Shell</span>
              <button type="button" className="btn btn-sm btn-ghost" onClick={copy} disabled={!key}>
                {copied ? "Copied" : "Copy"}
              </button>
            </div>
            <pre data-testid="env-lines">{lines}</pre>
          </div>
        </li>
        <li className="muted">
          Then trace as usual: <code>traceable()</code> / <code>@traceable</code>, a LangChain app, or any OpenTelemetry instrumentation.
        </li>
      </ol>
    </div>
  );
}
