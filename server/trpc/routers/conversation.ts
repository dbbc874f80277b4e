import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { toConversation } from "../../llm/conversation";
import { readLlmDetails } from "../../runs/llm-details";
import { readRun } from "../../runs/read";
import { uuid } from "../../core/uuid";
import { router, workspaceProcedure } from "../init";

export const conversationRouter = router({
  /** A run's messages in the canonical conversation model, with what ingest derived about its model call. */
  get: workspaceProcedure.input(z.object({ runId: uuid })).query(async ({ ctx, input }) => {
    const [run, details] = await Promise.all([
      readRun(ctx.sql, ctx.workspaceId, input.runId),
      readLlmDetails(ctx.sql, ctx.workspaceId, input.runId),
    ]);
    if (!run) throw new TRPCError({ code: "NOT_FOUND", message: `Run ${input.runId} not found.` });
    return { conversation: toConversation(run as { run_type: string; inputs: unknown; outputs: unknown }), details };
  }),
});
