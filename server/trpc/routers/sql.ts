import { runSqlQuery, sqlQueryBody, wireSqlQueryResult } from "../../sql/query";
import { listViews } from "../../sql/views";
import { router, workspaceProcedure } from "../init";
import { answers } from "../output";

/** The SQL page: one read-only SELECT over the chosen projects' runs and feedback. */
export const sqlRouter = router({
  views: workspaceProcedure.query(({ ctx }) => listViews(ctx.sql)),
  query: workspaceProcedure
    .input(sqlQueryBody)
    .output(answers(wireSqlQueryResult))
    .mutation(({ ctx, input }) => runSqlQuery(ctx.sql, ctx.workspaceId, { projectIds: input.project_ids, query: input.query })),
});
