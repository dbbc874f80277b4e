"use client";

import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RouterOutputs } from "@/app/trpc-types";
import { PALETTE } from "../_components/charts/palette";
import styles from "./sql.module.css";

type Result = RouterOutputs["sql"]["query"];

const NUMERIC = new Set(["integer", "float"]);
const TIME = new Set(["timestamp", "date"]);

/** A two-column result whose second column is a number: over time as a line, else as bars. */
export function chartable(result: Result): boolean {
  return result.columns.length === 2 && NUMERIC.has(result.columns[1]!.data_type) && result.row_count > 0;
}

export function ResultChart({ result }: { result: Result }) {
  const [x, y] = result.columns as [Result["columns"][number], Result["columns"][number]];
  const overTime = TIME.has(x.data_type);
  const data = result.rows.map((row) => ({ x: row[0] === null ? "null" : String(row[0]), y: row[1] as number | null }));
  if (overTime) data.sort((a, b) => Date.parse(a.x) - Date.parse(b.x));
  const label = (value: string) =>
    overTime ? new Date(value).toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit" }) : value;
  const axes = (
    <>
      <CartesianGrid stroke="var(--border)" vertical={false} />
      <XAxis
        dataKey="x"
        tickFormatter={label}
        tick={{ fontSize: 11, fill: "var(--muted)" }}
        tickLine={false}
        axisLine={{ stroke: "var(--border)" }}
        minTickGap={24}
      />
      <YAxis tick={{ fontSize: 11, fill: "var(--muted)" }} tickLine={false} axisLine={false} width={56} />
      <Tooltip
        labelFormatter={(value) => (overTime ? new Date(String(value)).toLocaleString() : String(value))}
        formatter={(value) => [String(value), y.name]}
        contentStyle={{ fontSize: 12, borderRadius: 6, border: "1px solid var(--border)", boxShadow: "var(--shadow-pop)" }}
        cursor={overTime ? { stroke: "var(--border-strong)" } : { fill: "var(--hover)" }}
      />
    </>
  );
  return (
    <div className={`card ${styles.chart}`} data-testid="sql-chart">
      <div className="faint" style={{ fontSize: 12, marginBottom: 6 }}>
        {y.name} by {x.name}
      </div>
      <ResponsiveContainer width="100%" height={220}>
        {overTime ? (
          <LineChart data={data} margin={{ top: 6, right: 8, bottom: 0, left: 0 }}>
            {axes}
            <Line
              dataKey="y"
              name={y.name}
              type="linear"
              stroke={PALETTE[0]}
              strokeWidth={1.5}
              dot={data.length < 3}
              isAnimationActive={false}
            />
          </LineChart>
        ) : (
          <BarChart data={data} margin={{ top: 6, right: 8, bottom: 0, left: 0 }}>
            {axes}
            <Bar dataKey="y" name={y.name} fill={PALETTE[0]} maxBarSize={36} isAnimationActive={false} />
          </BarChart>
        )}
      </ResponsiveContainer>
    </div>
  );
}
