import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { queryRuns } from "../../runs/query";
import { readRun } from "../../runs/read";
import { uuid } from "../../core/uuid";
import type { RunSelection } from "../../runs/selection";
import { groupThreads } from "../../runs/threads";
import { threadTurns } from "../../runs/thread-turns";
import { listAppUsers, userListInput } from "../../runs/users";
import { withSearch } from "../../runs/filter/index";
import { SORT_KEYS } from "../../runs/sorted";
import { runStats, wireRunStats } from "../../runs/stats";
import { router, workspaceProcedure, workspaceReadProcedure } from "../init";
import { answers } from "../output";
import { runDetail, storedRun, type WireRun } from "../../runs/serialize";
import { runsTablePage, runSummaryPage } from "../../runs/table";
import { threadPage } from "../../runs/threads";

/** The runs table's selection: one project, narrowed by the filter language and the toggles. */
const selection = z.object({
  projectId: uuid,
  filter: z.string().max(10_000).optional(),
  traceFilter: z.string().max(10_000).optional(),
  treeFilter: z.string().max(10_000).optional(),
  runType: z.string().max(64).optional(),
  rootOnly: z.boolean().optional(),
  error: z.boolean().optional(),
  /** The search box: full text in name, inputs, outputs and error (the trigram index). */
  search: z.string().max(1_000).optional(),
  /** The time range: a bound on start_time (the project's start_time index). */
  startTime: z.string().max(64).optional(),
  endTime: z.string().max(64).optional(),
});
type Selection = z.infer<typeof selection>;

/** The table's toggles as a selection: an empty box or an unticked toggle does not narrow. */
const runSelection = (s: Selection): RunSelection => ({
  projectIds: [s.projectId],
  filter: s.filter || undefined,
  traceFilter: s.traceFilter || undefined,
  treeFilter: s.treeFilter || undefined,
  runType: s.runType || undefined,
  isRoot: s.rootOnly ? true : undefined,
  error: s.error,
  search: s.search?.trim() || undefined,
  startTime: s.startTime || undefined,
  endTime: s.endTime || undefined,
});

export const runsRouter = router({
  /** One page of runs, newest first; `cursor` is the opaque keyset cursor of the previous page. */
  list: workspaceReadProcedure
    .input(
      selection.extend({
        cursor: z.string().nullish(),
        limit: z.number().int().min(1).max(100).default(50),
        /** Newest first unless asked otherwise; by a measure, pages are offsets (the cursor is one). */
        sort: z.object({ by: z.enum(["start_time", ...SORT_KEYS]), dir: z.enum(["asc", "desc"]) }).optional(),
      }),
    )
    .output(answers(runSummaryPage))
    .query(({ ctx, input }) => runsTablePage(ctx.sql, ctx.workspaceId, runSelection(input), input)),

  /** Statistics of the same selection (count, latency percentiles, tokens, cost, feedback). */
  stats: workspaceReadProcedure
    .input(selection)
    .output(answers(wireRunStats))
    .query(({ ctx, input }) => runStats(ctx.sql, ctx.workspaceId, runSelection(input))),

  /** The project's conversations (runs grouped by thread id), most recently active first. */
  threads: workspaceReadProcedure
    .input(
      selection
        .pick({ projectId: true, filter: true, search: true, startTime: true, endTime: true })
        .extend({ offset: z.number().int().min(0).default(0) }),
    )
    .output(answers(threadPage))
    .query(({ ctx, input }) =>
      groupThreads(ctx.sql, ctx.workspaceId, {
        projectId: input.projectId,
        filter: withSearch(input.filter, input.search),
        startTime: input.startTime || undefined,
        endTime: input.endTime || undefined,
        limit: 50,
        offset: input.offset,
      }),
    ),

  /** The project's end users (metadata user ids) with their traces' numbers: the Users page. */
  users: workspaceReadProcedure
    .input(userListInput.extend({ projectId: uuid }))
    .query(({ ctx, input }) => listAppUsers(ctx.sql, ctx.workspaceId, input)),

  /** One thread as a transcript of its turns. */
  threadTurns: workspaceProcedure
    .input(z.object({ projectId: uuid, threadId: z.string().min(1).max(1_000) }))
    .query(({ ctx, input }) => threadTurns(ctx.sql, ctx.workspaceId, input.projectId, input.threadId)),

  /** Whole runs (inputs, outputs, metadata) for an export of the ones selected in the table. */
  export: workspaceProcedure
    .input(z.object({ runIds: z.array(uuid).min(1).max(100) }))
    .output(answers(z.array(storedRun)))
    .query(async ({ ctx, input }) => {
      const page = await queryRuns(ctx.sql, ctx.workspaceId, { ids: input.runIds, limit: 100 });
      // Without a selection every field comes back.
      return page.runs as WireRun[];
    }),

  /** One run with its inputs, outputs, metadata and events. */
  get: workspaceProcedure
    .input(z.object({ runId: uuid }))
    .output(answers(runDetail))
    .query(async ({ ctx, input }) => {
      const run = await readRun(ctx.sql, ctx.workspaceId, input.runId);
      if (!run) throw new TRPCError({ code: "NOT_FOUND", message: `Run ${input.runId} not found.` });
      return run;
    }),
});
