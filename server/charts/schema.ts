import { z } from "zod";
import { uuid } from "../core/uuid";
import { runSelection } from "../runs/schema";
import type { Instant, RunSelection } from "../runs/selection";

export const METRICS = [
  "run_count",
  "error_count",
  "error_rate",
  "latency_p50",
  "latency_p99",
  "first_token_p50",
  "first_token_p99",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "prompt_cost",
  "completion_cost",
  "total_cost",
  "feedback",
] as const;
export type Metric = (typeof METRICS)[number];

export const GROUP_ATTRIBUTES = ["model", "provider", "name", "run_type", "status", "tag", "metadata"] as const;

export const groupBy = z
  .object({
    attribute: z.enum(GROUP_ATTRIBUTES),
    /** The metadata key, when grouping by metadata. */
    path: z.string().min(1).max(256).nullish(),
  })
  .refine((g) => g.attribute !== "metadata" || !!g.path, { message: "grouping by metadata needs the key in path", path: ["path"] });
export type GroupBy = z.infer<typeof groupBy>;

/** A bucket as seconds or a duration such as "5m", "1h", "1d". */
export const bucket = z.union([
  z.number().int().min(1),
  z.string().regex(/^\d+\s*(s|m|h|d|w)$/i, 'must be a duration such as "5m", "1h" or "1d"'),
]);

/** What one chart shows: the run selection plus metrics, grouping and bucket. Saved in chart sets as is. */
export const chartSpec = z.object({
  metrics: z.array(z.enum(METRICS)).min(1).default(["run_count", "error_rate", "latency_p50", "latency_p99"]),
  group_by: groupBy.nullish(),
  max_groups: z.number().int().min(1).max(50).default(10),
  bucket: bucket.nullish(),
  filter: z.string().nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  run_type: z.string().nullish(),
  is_root: z.boolean().nullish(),
  session: z.union([uuid, z.array(uuid)]).nullish(),
});

/** POST .../charts: a chart spec over a time range (default: the last 7 days). */
export const chartRequest = chartSpec.extend({
  start_time: z.union([z.string(), z.number()]).nullish(),
  end_time: z.union([z.string(), z.number()]).nullish(),
});
export type ChartRequest = z.infer<typeof chartRequest>;
type ChartSpec = z.infer<typeof chartSpec>;

/** What a chart shows, in the domain's words: metrics of the selected runs, bucketed over a time range. */
export interface ChartQuery {
  selection: RunSelection;
  metrics: Metric[];
  /** One series per group (the busiest `maxGroups`, 10 when absent). */
  groupBy?: GroupBy | null;
  maxGroups?: number;
  /** Seconds or a duration such as "1h"; chosen from the range when absent. */
  bucket?: number | string | null;
  /** The range; the last 7 days up to now when absent. */
  startTime?: Instant | null;
  endTime?: Instant | null;
}

/** A chart spec (POST .../charts' body, or a chart saved in a set) as a chart query. */
export function chartQueryFromWire(spec: ChartSpec & Partial<Pick<ChartRequest, "start_time" | "end_time">>): ChartQuery {
  const session = spec.session == null ? undefined : Array.isArray(spec.session) ? spec.session : [spec.session];
  return {
    selection: {
      projectIds: session,
      filter: spec.filter ?? undefined,
      traceFilter: spec.trace_filter ?? undefined,
      treeFilter: spec.tree_filter ?? undefined,
      runType: spec.run_type ?? undefined,
      isRoot: spec.is_root ?? undefined,
    },
    metrics: spec.metrics,
    groupBy: spec.group_by,
    maxGroups: spec.max_groups,
    bucket: spec.bucket,
    startTime: spec.start_time,
    endTime: spec.end_time,
  };
}

export { runSelection };

export const chartInSet = chartSpec.extend({
  id: z.string().min(1).max(64).nullish(),
  title: z.string().min(1).max(256),
  description: z.string().max(2000).nullish(),
});

export const chartSection = z.object({
  id: z.string().min(1).max(64).nullish(),
  title: z.string().min(1).max(256),
  description: z.string().max(2000).nullish(),
  charts: z.array(chartInSet).max(50).default([]),
});
export type ChartSection = z.infer<typeof chartSection>;

/** A saved chart set (dashboard): sections of charts, for the workspace or one project. */
export const chartSetCreate = z.object({
  name: z.string().trim().min(1, "must not be empty").max(256),
  description: z.string().max(2000).nullish(),
  project_id: uuid.nullish(),
  sections: z.array(chartSection).max(50).default([]),
});
export type ChartSetCreate = z.infer<typeof chartSetCreate>;

export const chartSetUpdate = z.object({
  name: z.string().trim().min(1, "must not be empty").max(256).optional(),
  description: z.string().max(2000).nullish(),
  sections: z.array(chartSection).max(50).optional(),
});
export type ChartSetUpdate = z.infer<typeof chartSetUpdate>;

/** Rendering a set: the time range and bucket every chart of the set shares. */
export const chartSetRender = z.object({
  start_time: z.union([z.string(), z.number()]).nullish(),
  end_time: z.union([z.string(), z.number()]).nullish(),
  bucket: bucket.nullish(),
});
export type ChartSetRender = z.infer<typeof chartSetRender>;
