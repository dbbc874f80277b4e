import { z } from "zod";
import { notFound } from "../core/errors";
import { queryRuns } from "../runs/query";
import { threadTurns } from "../runs/thread-turns";
import type { SessionFilter } from "../sessions/schema";
import { listSessions } from "../sessions/service";
import { runSqlQuery, sqlQueryBody } from "../sql/query";
import { Budget, FIELD_CHARS, clip, jsonResult } from "./clip";
import type { ToolContext } from "./context";
import { tool, type ToolSet } from "./tool";
import { traceTree } from "./trace";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const fieldChars = z
  .number()
  .int()
  .min(50)
  .max(20_000)
  .optional()
  .describe(`How many characters of each run's inputs and outputs to show (default ${FIELD_CHARS}); longer values are cut and say so.`);

/** A project named by id or by name, as its id (404 when the workspace has none such). */
export async function projectId(ctx: ToolContext, project: string): Promise<string> {
  if (UUID.test(project)) return project;
  const [found] = await listSessions(ctx.sql, ctx.workspaceId, { name: project, limit: 1 });
  if (!found) throw notFound(`No project named "${project}" in this workspace.`);
  return found.id;
}

export const runTools: ToolSet = {
  list_projects: tool({
    description:
      "List the workspace's tracing projects with their statistics (run and trace counts, error rate, latency percentiles, tokens, cost, feedback scores). Use a project's id or name in search_runs.",
    input: {
      name_contains: z.string().max(200).optional().describe("Only projects whose name contains this text."),
      limit: z.number().int().min(1).max(100).optional().describe("How many projects (default 20), most recently active first."),
    },
    run: async (ctx, { name_contains, limit }) => {
      const query: SessionFilter = { nameContains: name_contains, includeStats: true, limit: limit ?? 20, referenceFree: true };
      return jsonResult({ projects: await listSessions(ctx.sql, ctx.workspaceId, query) });
    },
  }),
  search_runs: tool({
    description: [
      "Search runs with LangSmith's filter language, newest first. Examples of `filter`:",
      'eq(run_type, "llm") · and(eq(status, "error"), gt(latency, 5)) · has(tags, "production") · search("refund") ·',
      'and(eq(feedback_key, "correctness"), lt(feedback_score, 0.5)) · eq(metadata_key, "user_id") with eq(metadata_value, "42").',
      "`trace_filter` applies to the root run of each run's trace, `tree_filter` to any run of the trace.",
      "Follow `next_cursor` for more. Inputs and outputs are cut to `max_chars_per_field`; use get_trace for a whole trace.",
    ].join(" "),
    input: {
      project: z.string().max(500).optional().describe("A project's id or exact name; all projects when left out."),
      filter: z.string().max(10_000).optional().describe("A filter expression over the runs themselves."),
      trace_filter: z.string().max(10_000).optional().describe("A filter over the root run of each run's trace."),
      tree_filter: z.string().max(10_000).optional().describe("A filter over any run of each run's trace."),
      is_root: z.boolean().optional().describe("true: only root runs (one per trace)."),
      error: z.boolean().optional().describe("true: only failed runs; false: only successful ones."),
      start_time: z.string().max(100).optional().describe("Only runs started at or after this ISO-8601 time."),
      limit: z.number().int().min(1).max(100).optional().describe("How many runs (default 20)."),
      cursor: z.string().max(2_000).optional().describe("`next_cursor` of the previous page."),
      max_chars_per_field: fieldChars,
    },
    run: async (ctx, input) => {
      const page = await queryRuns(ctx.sql, ctx.workspaceId, {
        projectIds: input.project ? [await projectId(ctx, input.project)] : undefined,
        filter: input.filter,
        traceFilter: input.trace_filter,
        treeFilter: input.tree_filter,
        isRoot: input.is_root,
        error: input.error,
        startTime: input.start_time,
        limit: input.limit ?? 20,
        cursor: input.cursor,
      });
      const budget = new Budget();
      const max = input.max_chars_per_field ?? FIELD_CHARS;
      return jsonResult({
        runs: page.runs.map((run) => ({
          id: run.id,
          trace_id: run.trace_id,
          parent_run_id: run.parent_run_id,
          project_id: run.session_id,
          name: run.name,
          run_type: run.run_type,
          status: run.status,
          start_time: run.start_time,
          latency: run.latency,
          error: clip(run.error, max),
          total_tokens: run.total_tokens,
          total_cost: run.total_cost,
          tags: run.tags,
          feedback_stats: run.feedback_stats,
          inputs: budget.take(run.inputs, max),
          outputs: budget.take(run.outputs, max),
        })),
        next_cursor: page.cursors.next,
        ...(budget.spent ? { note: "Answer size reached: later runs are listed without inputs and outputs." } : {}),
      });
    },
  }),
  get_trace: tool({
    description:
      "Read one trace as a tree: each run with its name, type, status, timing, tokens, cost, error, inputs and outputs (cut to `max_chars_per_field`), and its child runs. Big traces list their first `max_runs` runs in tree order.",
    input: {
      trace_id: z.string().describe("The trace's id (its root run's id)."),
      max_runs: z.number().int().min(1).max(1_000).optional().describe("How many runs to include (default 200)."),
      max_chars_per_field: fieldChars,
    },
    run: async (ctx, { trace_id, max_runs, max_chars_per_field }) =>
      jsonResult(await traceTree(ctx, trace_id, max_runs, max_chars_per_field)),
  }),
  get_thread: tool({
    description:
      "Read a conversation thread (the traces that share a thread id, e.g. `thread_id`, `session_id` or `conversation_id` metadata) as turns in time order: what the user said and what came back, with each turn's trace id for get_trace.",
    input: {
      project: z.string().max(500).describe("The thread's project: id or exact name."),
      thread_id: z.string().min(1).max(1_000).describe("The thread's id, as the application set it."),
      limit: z.number().int().min(1).max(500).optional().describe("How many turns (default 100)."),
      max_chars_per_field: fieldChars,
    },
    run: async (ctx, { project, thread_id, limit, max_chars_per_field }) => {
      const turns = await threadTurns(ctx.sql, ctx.workspaceId, await projectId(ctx, project), thread_id, limit ?? 100);
      if (!turns.length) throw notFound(`Thread ${thread_id} not found in that project.`);
      const budget = new Budget();
      const max = max_chars_per_field ?? FIELD_CHARS;
      return jsonResult({
        thread_id,
        turns: turns.map((t) => ({ ...t, user: budget.take(t.user, max), assistant: budget.take(t.assistant, max) })),
      });
    },
  }),
  run_sql: tool({
    description:
      "Run one read-only SQL SELECT over the views `runs` and `feedback` of the given projects (PostgreSQL syntax). Queries over runs need a start_time lower bound (`WHERE start_time > '2026-01-01'`); count, group and join as in PostgreSQL.",
    input: {
      project_ids: sqlQueryBody.shape.project_ids.describe("The projects (ids) the query may read."),
      query: sqlQueryBody.shape.query.describe("One SELECT statement."),
    },
    run: async (ctx, { project_ids, query }) => jsonResult(await runSqlQuery(ctx.sql, ctx.workspaceId, { projectIds: project_ids, query })),
  }),
};
