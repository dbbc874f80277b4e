import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { chartSeries, projectOrNotFound } from "./series";
import type { Metric } from "./schema";

/** POST /api/v1/sessions/{id}/dashboard (the client's `sessions.dashboard`): the range, stride and grouping of every chart. */
export const dashboardParams = z.looseObject({
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  stride: z
    .object({ days: z.number().min(0).optional(), hours: z.number().min(0).optional(), minutes: z.number().min(0).optional() })
    .nullish(),
  group_by: z
    .object({
      attribute: z.enum(["name", "run_type", "tag", "metadata"]),
      path: z.string().max(256).nullish(),
      max_groups: z.number().int().min(1).max(50).nullish(),
    })
    .nullish(),
  omit_data: z.boolean().nullish(),
  timezone: z.string().nullish(),
});
export type DashboardParams = z.infer<typeof dashboardParams>;

/** The prebuilt charts of a tracing project, as LangSmith's project dashboard shows them. */
const PREBUILT: { id: string; title: string; description: string; metrics: Metric[]; is_root?: boolean; run_type?: string }[] = [
  {
    id: "traces",
    title: "Trace count",
    description: "Traces (root runs) and those that errored.",
    metrics: ["run_count", "error_count"],
    is_root: true,
  },
  {
    id: "trace-latency",
    title: "Trace latency",
    description: "Seconds, p50 and p99.",
    metrics: ["latency_p50", "latency_p99"],
    is_root: true,
  },
  { id: "trace-errors", title: "Trace error rate", description: "Share of traces that errored.", metrics: ["error_rate"], is_root: true },
  {
    id: "llm-count",
    title: "LLM calls",
    description: "LLM runs and those that errored.",
    metrics: ["run_count", "error_count"],
    run_type: "llm",
  },
  {
    id: "llm-latency",
    title: "LLM latency",
    description: "Seconds, p50 and p99.",
    metrics: ["latency_p50", "latency_p99"],
    run_type: "llm",
  },
  {
    id: "first-token",
    title: "Time to first token",
    description: "Seconds, p50 and p99, over streamed LLM runs.",
    metrics: ["first_token_p50", "first_token_p99"],
    run_type: "llm",
  },
  {
    id: "tokens",
    title: "Tokens",
    description: "Prompt, completion and total tokens of LLM runs.",
    metrics: ["prompt_tokens", "completion_tokens", "total_tokens"],
    run_type: "llm",
  },
  {
    id: "cost",
    title: "Cost",
    description: "Prompt, completion and total cost of LLM runs.",
    metrics: ["prompt_cost", "completion_cost", "total_cost"],
    run_type: "llm",
  },
  { id: "feedback", title: "Feedback scores", description: "Average score per feedback key.", metrics: ["feedback"] },
];

const NAMES: Partial<Record<string, string>> = {
  run_count: "Count",
  error_count: "Errors",
  error_rate: "Error rate",
  latency_p50: "P50",
  latency_p99: "P99",
  first_token_p50: "P50",
  first_token_p99: "P99",
  prompt_tokens: "Prompt",
  completion_tokens: "Completion",
  total_tokens: "Total",
  prompt_cost: "Prompt",
  completion_cost: "Completion",
  total_cost: "Total",
};

/** A feedback series is `feedback:<key>` (server/charts/series.ts). */
const FEEDBACK = "feedback:";

const strideSeconds = (s: NonNullable<DashboardParams["stride"]>) =>
  ((s.days ?? 0) * 24 * 60 + (s.hours ?? 0) * 60 + (s.minutes ?? 0)) * 60;

/** A chart of the dashboard, in the client's `CustomChartsSection` shape. */
const wireDashboardChart = z.object({
  id: z.string(),
  chart_type: z.literal("line"),
  title: z.string(),
  description: z.string().nullable(),
  index: z.number(),
  series: z.array(z.object({ id: z.string(), name: z.string(), metric: z.string(), feedback_key: z.string().nullable() })),
  data: z.array(z.object({ series_id: z.string(), timestamp: z.string(), value: z.number().nullable(), group: z.string().nullable() })),
  common_filters: z.null(),
  metadata: z.object({ bucket_seconds: z.number(), start_time: z.string(), end_time: z.string() }),
});

/** `POST /sessions/{id}/dashboard` (`client.sessions.dashboard`). */
export const wireDashboard = z.object({
  id: z.string(),
  title: z.string(),
  description: z.null(),
  index: z.number(),
  session_id: z.string(),
  charts: z.array(wireDashboardChart),
  sub_sections: z.array(z.never()),
});

/**
 * The project's prebuilt dashboard: one section of line charts (traces, latency, errors, LLM
 * calls, first token, tokens, cost, feedback) over the range, each read like any chart (from the
 * analytics rollups whenever they can answer). A project of another workspace is a 404.
 */
export async function projectDashboard(
  db: Sql,
  workspaceId: string,
  projectId: string,
  params: DashboardParams,
): Promise<z.infer<typeof wireDashboard>> {
  await projectOrNotFound(db, workspaceId, projectId);
  const stride = params.stride ? strideSeconds(params.stride) : 0;
  // The checks a chart request's schema makes, for the parameters this endpoint passes on.
  if (params.group_by?.attribute === "metadata" && !params.group_by.path)
    throw badRequest("Invalid request: group_by.path: grouping by metadata needs the key in path");
  if (stride > 0 && !Number.isInteger(stride)) throw badRequest("Invalid request: bucket: the stride must be a whole number of seconds");
  const charts = await Promise.all(
    PREBUILT.map(async (spec, index) => {
      const chart = await chartSeries(db, workspaceId, {
        selection: { projectIds: [projectId], isRoot: spec.is_root, runType: spec.run_type },
        metrics: spec.metrics,
        startTime: params.start_time,
        endTime: params.end_time,
        bucket: stride > 0 ? stride : undefined,
        groupBy: params.group_by ? { attribute: params.group_by.attribute, path: params.group_by.path } : undefined,
        maxGroups: params.group_by?.max_groups ?? undefined,
      });
      const seriesIds = [...new Set(chart.series.map((s) => s.metric))];
      return {
        id: spec.id,
        chart_type: "line" as const,
        title: spec.title,
        description: spec.description,
        index,
        series: seriesIds.map((id) => {
          const feedbackKey = id.startsWith(FEEDBACK) ? id.slice(FEEDBACK.length) : null;
          return { id, name: feedbackKey ?? NAMES[id] ?? id, metric: feedbackKey === null ? id : "feedback", feedback_key: feedbackKey };
        }),
        data: params.omit_data
          ? []
          : chart.series.flatMap((s) =>
              s.values.map((value, i) => ({ series_id: s.metric, timestamp: chart.buckets[i], value, group: s.group })),
            ),
        common_filters: null,
        metadata: { bucket_seconds: chart.bucket_seconds, start_time: chart.start_time, end_time: chart.end_time },
      };
    }),
  );
  return { id: projectId, title: "Project dashboard", description: null, index: 0, session_id: projectId, charts, sub_sections: [] };
}
