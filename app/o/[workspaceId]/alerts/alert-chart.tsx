"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RouterOutputs } from "@/app/trpc-types";
import { niceTicks } from "../_components/charts/ticks";
import { timeTicks } from "../_components/charts/time-ticks";
import { PALETTE } from "../_components/charts/palette";
import styles from "./alerts.module.css";
import { formatAlertValue } from "./format";

type Series = RouterOutputs["alerts"]["series"];

const hm = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

/** The metric's recent values (each over the rule's window) beside the threshold, drawn as a dashed line. */
export function AlertChart({ series, metric }: { series: Series; metric: string }) {
  const values = series.points.map((p) => p.value).filter((v): v is number => v !== null);
  if (values.length === 0) return <div className={styles.noData}>No data in the last hours: the rule has nothing to judge yet.</div>;
  const ticks = niceTicks(Math.max(series.threshold, ...values) * 1.1, metric === "run_count");
  // Round instants on the time axis, as the dashboards have (one point: its own time).
  const [first, second] = series.points.map((p) => Date.parse(p.time));
  const time = second
    ? timeTicks(
        series.points.map((p) => p.time),
        (second - first) / 1000,
      )
    : { ticks: series.points.map((p) => p.time), label: hm };
  return (
    <div style={{ height: 200 }} data-testid="alert-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={series.points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" vertical={false} />
          <XAxis
            dataKey="time"
            ticks={time.ticks}
            interval={0}
            tickFormatter={time.label}
            tick={{ fontSize: 11, fill: "var(--muted)" }}
            tickLine={false}
            axisLine={{ stroke: "var(--border)" }}
          />
          <YAxis
            domain={[0, ticks[ticks.length - 1]]}
            ticks={ticks}
            interval={0}
            tickFormatter={(v: number) => formatAlertValue(metric, v, true)}
            tick={{ fontSize: 11, fill: "var(--muted)" }}
            tickLine={false}
            axisLine={false}
            width={56}
          />
          <Tooltip
            labelFormatter={(t) => new Date(String(t)).toLocaleString()}
            formatter={(v) => [formatAlertValue(metric, v as number | null), "Value"]}
            contentStyle={{
              fontSize: 12,
              borderRadius: 6,
              border: "1px solid var(--border)",
              background: "var(--surface)",
              color: "var(--text)",
            }}
          />
          <ReferenceLine
            y={series.threshold}
            stroke="var(--error)"
            strokeDasharray="5 4"
            label={{
              value: `threshold ${formatAlertValue(metric, series.threshold)}`,
              position: "insideTopRight",
              fontSize: 11,
              fill: "var(--error)",
            }}
          />
          <Line
            dataKey="value"
            type="monotone"
            stroke={PALETTE[0]}
            strokeWidth={1.5}
            dot={values.length < 3 ? { r: 3 } : false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
