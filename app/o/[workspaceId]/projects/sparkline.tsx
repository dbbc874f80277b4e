"use client";

import { useQuery } from "@tanstack/react-query";
import { Area, AreaChart, ResponsiveContainer, Tooltip } from "recharts";
import { useTRPC } from "@/app/trpc-client";

interface Point {
  day: string;
  runs: number;
  errors: number;
}

function SparkTooltip({ active, payload }: { active?: boolean; payload?: { payload: Point }[] }) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload;
  return (
    <div className="card" style={{ padding: "4px 8px", fontSize: 11.5 }}>
      <div className="muted">{p.day}</div>
      <div>{p.runs} traces{p.errors ? <span className="err-text"> · {p.errors} errors</span> : null}</div>
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
  }));
  return (
    <div style={{ width: 120, height: 26 }} aria-label="Traces per day, last 14 days">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points} margin={{ top: 2, right: 0, bottom: 0, left: 0 }}>
          <Tooltip content={<SparkTooltip />} cursor={false} wrapperStyle={{ zIndex: 20 }} allowEscapeViewBox={{ x: true, y: true }} />
          <Area type="monotone" dataKey="runs" stroke="#5b5bd6" strokeWidth={1.5} fill="#e6e6fb" fillOpacity={0.9} isAnimationActive={false} dot={false} />
          <Area type="monotone" dataKey="errors" stroke="#d4383f" strokeWidth={1.2} fill="#d4383f" fillOpacity={0.08} isAnimationActive={false} dot={false} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
