"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, ReferenceLine, ResponsiveContainer, Tooltip } from "recharts";
import { useTRPC } from "@/app/trpc-client";

interface Point {
  day: string;
  runs: number;
  errors: number;
  ok: number;
}

function SparkTooltip({ active, payload }: { active?: boolean; payload?: { payload: Point }[] }) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload;
  return (
    <div className="card" style={{ padding: "4px 8px", fontSize: 11.5 }}>
      <div className="muted">{p.day}</div>
      <div>
        {p.runs} traces{p.errors ? <span className="err-text"> · {p.errors} errors</span> : null}
      </div>
    </div>
  );
}

/** Traces per day over the last two weeks, errors in red. */
export function ActivitySparkline({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.projects.activity.queryOptions({ workspaceId, projectId }), staleTime: 60_000 });
  if (query.isPending) return <div className="skeleton" style={{ width: 120, height: 22 }} />;
  if (query.isError) return <span className="faint">–</span>;
  const runs = query.data.series.find((s) => s.metric === "run_count")?.values ?? [];
  const errors = query.data.series.find((s) => s.metric === "error_count")?.values ?? [];
  const points: Point[] = query.data.buckets.map((b, i) => ({
    day: new Date(b).toLocaleDateString("en-US", { month: "short", day: "numeric" }),
    runs: runs[i] ?? 0,
    errors: errors[i] ?? 0,
    ok: Math.max(0, (runs[i] ?? 0) - (errors[i] ?? 0)),
  }));
  return (
    <div style={{ width: 120, height: 26 }} aria-label="Traces per day, last 14 days">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={points} margin={{ top: 2, right: 0, bottom: 1, left: 0 }} barCategoryGap={1}>
          <Tooltip
            content={<SparkTooltip />}
            cursor={{ fill: "var(--surface-3)" }}
            wrapperStyle={{ zIndex: 20 }}
            allowEscapeViewBox={{ x: true, y: true }}
          />
          <ReferenceLine y={0} stroke="var(--border-strong)" />
          <Bar dataKey="ok" stackId="runs" fill="#8b8be6" isAnimationActive={false} minPointSize={0} />
          <Bar dataKey="errors" stackId="runs" fill="var(--error)" isAnimationActive={false} radius={[1, 1, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
