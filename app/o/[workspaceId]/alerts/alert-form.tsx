"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterInputs } from "@/app/trpc-types";
import grid from "../_components/form-grid.module.css";
import { TextField } from "../_components/text-field";
import { isShare, METRICS } from "./format";

type NewAlert = RouterInputs["alerts"]["create"]["alert"];
type Kind = "none" | "webhook" | "slack" | "pagerduty";

/** A new alert rule: what to watch, when it fires, and where it is sent (one destination; more through the API). */
export function AlertForm({ workspaceId, projectId, onDone }: { workspaceId: string; projectId?: string; onDone: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const projects = useQuery({ ...trpc.projects.list.queryOptions({ workspaceId }), enabled: !projectId });
  const [name, setName] = useState("");
  const [project, setProject] = useState(projectId ?? "");
  const [metric, setMetric] = useState("error_rate");
  const [feedbackKey, setFeedbackKey] = useState("");
  const [feedbackValue, setFeedbackValue] = useState("");
  const [comparison, setComparison] = useState<NewAlert["comparison"]>("gt");
  const [threshold, setThreshold] = useState("10");
  const [windowMinutes, setWindowMinutes] = useState("5");
  const [filter, setFilter] = useState("");
  const [kind, setKind] = useState<Kind>("slack");
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState("");
  const [routingKey, setRoutingKey] = useState("");
  const create = useMutation(
    trpc.alerts.create.mutationOptions({
      onSuccess: (saved) => {
        void queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() });
        onDone(saved.id);
      },
    }),
  );
  const share = isShare(metric);
  const destination = (): NewAlert["destinations"] => {
    const signing = secret.trim() ? { secret: secret.trim() } : {};
    if (kind === "none") return [];
    if (kind === "pagerduty") return [{ kind, url: url.trim() || null, routing_key: routingKey.trim(), severity: "error", ...signing }];
    return [{ kind, url: url.trim(), ...signing }];
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      workspaceId,
      alert: {
        name: name.trim(),
        session_id: metric === "evaluator_spend_share" ? null : project || null,
        metric: metric as NewAlert["metric"],
        feedback_key: metric.startsWith("feedback_") ? feedbackKey.trim() : null,
        feedback_value: metric === "feedback_share" ? feedbackValue.trim() : null,
        comparison,
        threshold: Number(threshold) / (share ? 100 : 1),
        window_minutes: Number(windowMinutes),
        filter: filter.trim() || null,
        root_runs_only: true,
        destinations: destination(),
        is_enabled: true,
      },
    });
  };
  return (
    <form className={`card ${grid.form}`} onSubmit={submit} aria-label="New alert">
      <TextField label="Name" value={name} onChange={setName} required aria-label="Alert name" />
      {!projectId && metric !== "evaluator_spend_share" && (
        <label className={grid.field}>
          Project
          <select className="select" value={project} onChange={(e) => setProject(e.target.value)} required aria-label="Project">
            <option value="">Choose a project…</option>
            {(projects.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className={grid.field}>
        Metric
        <select className="select" value={metric} onChange={(e) => setMetric(e.target.value)} aria-label="Metric">
          {METRICS.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      {metric.startsWith("feedback_") && (
        <TextField label="Feedback key" value={feedbackKey} onChange={setFeedbackKey} required aria-label="Feedback key" />
      )}
      {metric === "feedback_share" && (
        <TextField label="Feedback value" value={feedbackValue} onChange={setFeedbackValue} required aria-label="Feedback value" />
      )}
      <label className={grid.field}>
        Fires when the value is
        <span className="row" style={{ gap: 6 }}>
          <select
            className="select"
            value={comparison}
            onChange={(e) => setComparison(e.target.value as NewAlert["comparison"])}
            aria-label="Comparison"
          >
            <option value="gt">above</option>
            <option value="gte">at or above</option>
            <option value="lt">below</option>
            <option value="lte">at or below</option>
          </select>
          <input
            className="input"
            type="number"
            step="any"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            required
            aria-label="Threshold"
            style={{ width: 90 }}
          />
          {share ? "%" : null}
        </span>
      </label>
      {metric !== "evaluator_spend_share" && (
        <TextField
          label="Over the last (minutes)"
          type="number"
          min={1}
          max={10080}
          value={windowMinutes}
          onChange={setWindowMinutes}
          aria-label="Window in minutes"
        />
      )}
      {metric !== "evaluator_spend_share" && (
        <TextField
          label="Filter (optional, the filter language)"
          wide
          mono
          value={filter}
          onChange={setFilter}
          placeholder='eq(name, "agent")'
          aria-label="Filter"
        />
      )}
      <label className={grid.field}>
        Notify
        <select className="select" value={kind} onChange={(e) => setKind(e.target.value as Kind)} aria-label="Destination">
          <option value="slack">Slack (incoming webhook)</option>
          <option value="pagerduty">PagerDuty (Events API v2)</option>
          <option value="webhook">Webhook (JSON)</option>
          <option value="none">Nobody (history only)</option>
        </select>
      </label>
      {kind !== "none" && (
        <TextField
          label={kind === "pagerduty" ? "Events URL (optional)" : "URL"}
          value={url}
          onChange={setUrl}
          required={kind !== "pagerduty"}
          placeholder={kind === "pagerduty" ? "https://events.pagerduty.com/v2/enqueue" : "https://"}
          aria-label="Destination URL"
        />
      )}
      {kind === "pagerduty" && (
        <TextField label="Routing key" type="password" value={routingKey} onChange={setRoutingKey} required aria-label="Routing key" />
      )}
      {kind !== "none" && (
        <TextField label="Signing secret (optional)" type="password" value={secret} onChange={setSecret} aria-label="Signing secret" />
      )}
      <div className={`${grid.wide} row`} style={{ gap: 8 }}>
        <button className="btn btn-primary" type="submit" disabled={create.isPending}>
          Create alert
        </button>
        {create.isError && <span className="err-text">{create.error.message}</span>}
      </div>
    </form>
  );
}
