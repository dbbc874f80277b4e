import { z } from "zod";
import { uuid } from "../../core/uuid";
import { evaluatorCreate } from "../../evaluators/schema";
import { createEvaluator, deleteEvaluator, evaluatorSpend, listEvaluators, wireEvaluatorSpend } from "../../evaluators/service";
import { listBackfills, startBackfill } from "../../rules/backfill";
import { ruleCreate, wireBackfill, wireRule, wireRuleLog } from "../../rules/schema";
import { createRule, deleteRule, listRules, ruleLogs, updateRule } from "../../rules/service";
import { listSpendLimits, setSpendLimit } from "../../spend/limits";
import { spendLimitSet, wireSpendLimit } from "../../spend/schema";
import { router, workspaceAdminProcedure, workspaceProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";
import { wireEvaluator } from "../../evaluators/store";

const evaluatorRef = z.object({ evaluatorId: uuid });
const ruleRef = z.object({ ruleId: uuid });
const WEEK_MS = 7 * 86_400_000;

/** The evaluators page: evaluators, where they are attached (rules), their backfills, logs and spend. */
export const evaluatorsRouter = router({
  list: workspaceProcedure
    .output(answers(z.object({ evaluators: z.array(wireEvaluator), total: z.number() })))
    .query(({ ctx }) => listEvaluators(ctx.sql, ctx.workspaceId, { offset: 0, limit: 1000 })),

  /** What each evaluator's model calls cost over the last 7 days, and how many runs it judged. */
  spend: workspaceProcedure
    .output(answers(wireEvaluatorSpend))
    .query(({ ctx }) => evaluatorSpend(ctx.sql, ctx.workspaceId, { periodStart: new Date(Date.now() - WEEK_MS), groupBy: "evaluator" })),

  /** The workspace's spend limits (evaluators, playground, per evaluator), each with its current window's spend. */
  limits: workspaceProcedure.output(answers(z.array(wireSpendLimit))).query(({ ctx }) => listSpendLimits(ctx.sql, ctx.workspaceId)),

  setLimit: workspaceAdminProcedure
    .input(z.object({ limit: spendLimitSet }))
    .output(answers(z.array(wireSpendLimit)))
    .mutation(({ ctx, input }) => setSpendLimit(ctx.sql, ctx.workspaceId, input.limit)),

  create: workspaceWriteProcedure
    .input(evaluatorCreate)
    .output(answers(z.object({ evaluator: wireEvaluator })))
    .mutation(({ ctx, input }) => createEvaluator(ctx.sql, ctx.workspaceId, input)),

  delete: workspaceWriteProcedure
    .input(evaluatorRef)
    .mutation(({ ctx, input }) => deleteEvaluator(ctx.sql, ctx.workspaceId, input.evaluatorId, true)),

  rules: workspaceProcedure
    .input(evaluatorRef)
    .output(answers(z.array(wireRule)))
    .query(({ ctx, input }) => listRules(ctx.sql, ctx.workspaceId, { evaluatorId: input.evaluatorId, offset: 0, limit: 1000 })),

  /** Attaches the evaluator to a project (its new runs) or a dataset (its new experiments) by a rule. */
  attach: workspaceWriteProcedure
    .input(
      z.object({
        evaluatorId: uuid,
        displayName: z.string().min(1).max(200),
        target: z.union([z.object({ session_id: uuid }), z.object({ dataset_id: uuid })]),
        filter: z.string().max(10_000).nullish(),
        samplingRate: z.number().min(0).max(1),
      }),
    )
    .output(answers(wireRule))
    .mutation(({ ctx, input }) =>
      createRule(
        ctx.sql,
        ctx.workspaceId,
        ruleCreate.parse({
          display_name: input.displayName,
          ...input.target,
          filter: input.filter,
          sampling_rate: input.samplingRate,
          evaluator_id: input.evaluatorId,
        }),
      ),
    ),

  setEnabled: workspaceWriteProcedure
    .input(ruleRef.extend({ enabled: z.boolean() }))
    .output(answers(wireRule))
    .mutation(({ ctx, input }) => updateRule(ctx.sql, ctx.workspaceId, input.ruleId, { is_enabled: input.enabled })),

  detach: workspaceWriteProcedure.input(ruleRef).mutation(({ ctx, input }) => deleteRule(ctx.sql, ctx.workspaceId, input.ruleId)),

  backfill: workspaceWriteProcedure
    .input(ruleRef.extend({ since: z.date() }))
    .output(answers(wireBackfill))
    .mutation(({ ctx, input }) => startBackfill(ctx.sql, ctx.workspaceId, input.ruleId, { start: input.since, end: new Date() })),

  backfills: workspaceProcedure
    .input(ruleRef)
    .output(answers(z.array(wireBackfill)))
    .query(({ ctx, input }) => listBackfills(ctx.sql, ctx.workspaceId, input.ruleId)),

  logs: workspaceProcedure
    .input(ruleRef)
    .output(answers(z.array(wireRuleLog)))
    .query(({ ctx, input }) => ruleLogs(ctx.sql, ctx.workspaceId, input.ruleId, { offset: 0, limit: 50 })),
});
