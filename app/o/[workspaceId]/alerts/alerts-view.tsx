"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { formatExactTime, relativeTime } from "../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { useUrlState } from "../_components/url-state";
import { AlertChart } from "./alert-chart";
import { AlertForm } from "./alert-form";
import styles from "./alerts.module.css";
import { formatAlertValue, metricName, SIGNS } from "./format";

type Alert = RouterOutputs["alerts"]["list"][number];

const STATE_BADGE: Record<string, string> = { ok: "badge badge-ok", firing: "badge badge-error", no_data: "badge" };
const STATE_LABEL: Record<string, string> = { ok: "OK", firing: "Firing", no_data: "No data" };

export function StateBadge({ state }: { state: string }) {
  return (
    <span className={STATE_BADGE[state] ?? "badge"} data-testid="alert-state">
      {STATE_LABEL[state] ?? state}
    </span>
  );
}

const describe = (a: Alert) =>
  `${a.metric.startsWith("feedback_") ? `${metricName(a.metric)} "${a.feedback_key}"${a.feedback_value ? ` = "${a.feedback_value}"` : ""}` : metricName(a.metric)} ${SIGNS[a.comparison]} ${formatAlertValue(a.metric, a.threshold)}${a.metric === "evaluator_spend_share" ? "" : ` over ${a.window_minutes} min`}`;

/** The page header's "New alert" button: opens the form (`?new=1`) that AlertsView shows, or cancels it. */
export function NewAlertButton() {
  const [params, setParams] = useUrlState();
  const creating = params.get("new") === "1";
  return (
    <button
      className={creating ? "btn" : "btn btn-primary"}
      type="button"
      onClick={() => setParams({ new: creating ? null : "1" })}
      data-testid="new-alert"
    >
      {creating ? "Cancel" : "New alert"}
    </button>
  );
}

/**
 * The Alerts page of a project (its rules) or of the workspace (every rule): the list with each
 * rule's state, and the chosen rule's metric chart beside its threshold, its facts, actions and history.
 */
export function AlertsView({ workspaceId, projectId }: { workspaceId: string; projectId?: string }) {
  const trpc = useTRPC();
  const [params, setParams] = useUrlState();
  const alerts = useQuery({ ...trpc.alerts.list.queryOptions({ workspaceId, projectId: projectId ?? null }), refetchInterval: 15_000 });
  const creating = params.get("new") === "1";
  const selected = params.get("alert") ?? alerts.data?.[0]?.id ?? null;
  if (alerts.isError) return <ErrorState error={alerts.error} title="Could not load the alerts" />;
  if (!alerts.data) return <LoadingState />;
  return (
    <>
      {creating && <AlertForm workspaceId={workspaceId} projectId={projectId} onDone={(id) => setParams({ new: null, alert: id })} />}
      {alerts.data.length === 0 ? (
        creating ? null : (
          <EmptyState title="No alerts yet">
            An alert watches a metric — error rate, latency, cost, feedback — over the last minutes and tells Slack, PagerDuty or a webhook
            when it crosses a threshold, and again when it recovers.
          </EmptyState>
        )
      ) : (
        <div className={styles.layout}>
          <div className={`card ${styles.list}`} role="list" aria-label="Alerts">
            {alerts.data.map((a) => (
              <button
                key={a.id}
                type="button"
                role="listitem"
                className={styles.item}
                aria-current={a.id === selected}
                onClick={() => setParams({ alert: a.id })}
              >
                <span className={styles.itemHead}>
                  <span className="truncate">{a.name}</span>
                  <StateBadge state={a.state} />
                </span>
                <span className={styles.condition}>{describe(a)}</span>
                <span className={styles.condition}>
                  now {formatAlertValue(a.metric, a.last_value)}
                  {a.muted_until && new Date(a.muted_until) > new Date() ? " · muted" : ""}
                  {a.is_enabled ? "" : " · disabled"}
                </span>
              </button>
            ))}
          </div>
          {selected && alerts.data.some((a) => a.id === selected) && (
            <AlertDetail workspaceId={workspaceId} alert={alerts.data.find((a) => a.id === selected)!} />
          )}
        </div>
      )}
    </>
  );
}

function AlertDetail({ workspaceId, alert }: { workspaceId: string; alert: Alert }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const series = useQuery({ ...trpc.alerts.series.queryOptions({ workspaceId, alertId: alert.id }), refetchInterval: 60_000 });
  // The list is polled; a change of state or a new evaluation brings the history (and the chart) up to date.
  const history = useQuery(trpc.alerts.history.queryOptions({ workspaceId, alertId: alert.id }));
  const { refetch: refetchHistory } = history;
  useEffect(() => {
    void refetchHistory();
  }, [alert.state, refetchHistory]);
  const [tested, setTested] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() });
  const update = useMutation(trpc.alerts.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.alerts.delete.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(
    trpc.alerts.test.mutationOptions({
      onSuccess: (r) => {
        setTested(`Sent to ${r.deliveries.length} destination(s); value now ${formatAlertValue(alert.metric, r.value)}.`);
        refresh();
      },
      onError: (e) => setTested(e.message),
    }),
  );
  const muted = alert.muted_until !== null && new Date(alert.muted_until) > new Date();
  const change = (c: Parameters<typeof update.mutate>[0]["change"]) => update.mutate({ workspaceId, alertId: alert.id, change: c });
  return (
    <div className={`card ${styles.detail}`} data-testid="alert-detail">
      <div className={styles.detailHead}>
        <div className="col" style={{ gap: 4 }}>
          <h2 style={{ margin: 0 }}>
            {alert.name} <StateBadge state={alert.state} />
          </h2>
          <span className={styles.note}>
            {describe(alert)} · {alert.state === "no_data" ? "no data" : alert.state} since {relativeTime(alert.state_since)}
          </span>
        </div>
        <div className={styles.actions}>
          <button className="btn" type="button" onClick={() => test.mutate({ workspaceId, alertId: alert.id })} disabled={test.isPending}>
            Send a test notification
          </button>
          <button
            className="btn"
            type="button"
            onClick={() => change({ muted_until: muted ? null : new Date(Date.now() + 3_600_000).toISOString() })}
          >
            {muted ? "Unmute" : "Mute for 1 h"}
          </button>
          <button className="btn" type="button" onClick={() => change({ is_enabled: !alert.is_enabled })}>
            {alert.is_enabled ? "Disable" : "Enable"}
          </button>
          <button
            className="btn"
            type="button"
            onClick={() => window.confirm(`Delete the alert "${alert.name}"?`) && remove.mutate({ workspaceId, alertId: alert.id })}
          >
            Delete
          </button>
        </div>
      </div>
      {tested && <div className={styles.note}>{tested}</div>}
      {series.data ? (
        <AlertChart series={series.data} metric={alert.metric} />
      ) : series.isError ? (
        <ErrorState error={series.error} title="Could not draw the chart" />
      ) : (
        <LoadingState label="Measuring…" />
      )}
      <dl className={styles.facts}>
        <div>
          <dt>Last value</dt>
          <dd>{formatAlertValue(alert.metric, alert.last_value)}</dd>
        </div>
        <div>
          <dt>Last evaluated</dt>
          <dd>{alert.last_evaluated_at ? relativeTime(alert.last_evaluated_at) : "not yet"}</dd>
        </div>
        <div>
          <dt>Read from</dt>
          <dd>{alert.last_source === "scan" ? "a scan of the runs (the filter is beyond the rollups)" : (alert.last_source ?? "—")}</dd>
        </div>
        <div>
          <dt>Muted until</dt>
          <dd>{muted ? formatExactTime(alert.muted_until) : "not muted"}</dd>
        </div>
        {alert.filter && (
          <div>
            <dt>Filter</dt>
            <dd className="mono">{alert.filter}</dd>
          </div>
        )}
        <div>
          <dt>Destinations</dt>
          <dd>
            {alert.destinations.length ? alert.destinations.map((d) => `${d.kind}${d.signed ? " (signed)" : ""}`).join(", ") : "none"}
          </dd>
        </div>
      </dl>
      <div>
        <h3 style={{ margin: "0 0 6px" }}>History</h3>
        {history.data?.length ? (
          <table className={styles.history} data-testid="alert-history">
            <thead>
              <tr>
                <th>When</th>
                <th>Event</th>
                <th>Value</th>
                <th>Notifications</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((e) => (
                <tr key={e.id}>
                  <td title={formatExactTime(e.created_at)}>{relativeTime(e.created_at)}</td>
                  <td>
                    {e.kind === "test"
                      ? "test"
                      : e.kind === "fired"
                        ? "fired"
                        : e.kind === "resolved"
                          ? "resolved"
                          : `→ ${e.to_state.replace("_", " ")}`}
                  </td>
                  <td>{formatAlertValue(alert.metric, e.value)}</td>
                  <td>
                    {e.deliveries.length
                      ? e.deliveries.map((d) => `${d.kind} ${d.outcome === "success" ? "✓" : `✗ ${d.status_code ?? ""}`}`).join(" · ")
                      : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <div className={styles.note}>No state changes yet.</div>
        )}
      </div>
    </div>
  );
}
