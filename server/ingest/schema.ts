import { z } from "zod";
import { describeZodError } from "../core/errors";
import { jsonDepth, MAX_DEPTH } from "../core/json-depth";
import { uuid } from "../core/uuid";
import { MAX_INDEXED_TEXT, runNameFault, runTypeFault } from "./limits";

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const time = z.union([z.string(), z.number()]).nullish();

const NO_NUL = (s: string) => !s.includes("\u0000");

/** A run as the SDKs send it in a post or a patch. Unknown keys are ignored. */
export const wireRun = z
  .looseObject({
    id: optional(uuid),
    name: optional(z.string()),
    run_type: optional(z.string()),
    inputs: optional(z.unknown()),
    outputs: optional(z.unknown()),
    extra: optional(z.record(z.string(), z.unknown())),
    events: optional(z.array(z.unknown())),
    error: optional(z.unknown()),
    serialized: optional(z.unknown()),
    tags: optional(z.array(z.string().max(MAX_INDEXED_TEXT, "a tag is at most 1,000 characters"))),
    reference_example_id: optional(uuid),
    parent_run_id: optional(uuid),
    trace_id: optional(uuid),
    dotted_order: optional(z.string()),
    session_name: optional(
      z.string().max(MAX_INDEXED_TEXT, "a project name is at most 1,000 characters").refine(NO_NUL, "a project name cannot contain U+0000"),
    ),
    session_id: optional(uuid),
    start_time: time,
    end_time: time,
  })
  .superRefine((run, ctx) => {
    const name = runNameFault(run.name);
    if (name) ctx.addIssue({ code: "custom", path: ["name"], message: name });
    for (const field of ["inputs", "outputs", "extra", "events", "serialized", "error"] as const) {
      if (jsonDepth(run[field]) > MAX_DEPTH)
        ctx.addIssue({ code: "custom", path: [field], message: `nests deeper than ${MAX_DEPTH} levels` });
    }
  });
export type WireRun = z.infer<typeof wireRun>;

/**
 * Each run of a batch checked on its own: the valid ones, and why each other one was refused. The
 * run type is checked here rather than in `wireRun`, whose failures are a 400: alone (POST /runs),
 * a run type the SDKs do not know is a 422 (limits.ts checkRunType, at ingest).
 */
export function checkRuns(items: unknown[], kind: "post" | "patch"): { runs: WireRun[]; rejected: { id: string; detail: string }[] } {
  const runs: WireRun[] = [];
  const rejected: { id: string; detail: string }[] = [];
  items.forEach((item, i) => {
    const parsed = wireRun.safeParse(item);
    const runType = parsed.success ? runTypeFault(parsed.data.run_type) : null;
    if (parsed.success && !runType) runs.push(parsed.data);
    else {
      const id = (item as { id?: unknown } | null)?.id;
      const detail = parsed.success ? `Invalid ${kind}[${i}]: ${runType}` : describeZodError(parsed.error, `${kind}[${i}]`);
      rejected.push({ id: typeof id === "string" ? id : `${kind}[${i}]`, detail });
    }
  });
  return { runs, rejected };
}

/** POST /runs/batch: the runs are checked one by one (checkRuns), so one bad run costs only itself. */
export const batchBody = z.object({
  post: z.array(z.unknown()).nullish(),
  patch: z.array(z.unknown()).nullish(),
});
