import { createCallerFactory, router } from "./init";
import { accountRouter } from "./routers/account";
import { alertsRouter } from "./routers/alerts";
import { chartsRouter } from "./routers/charts";
import { conversationRouter } from "./routers/conversation";
import { datasetsRouter } from "./routers/datasets";
import { evaluatorsRouter } from "./routers/evaluators";
import { experimentsRouter } from "./routers/experiments";
import { feedbackRouter } from "./routers/feedback";
import { modelsRouter } from "./routers/models";
import { playgroundRouter } from "./routers/playground";
import { projectsRouter } from "./routers/projects";
import { promptsRouter } from "./routers/prompts";
import { queuesRouter } from "./routers/queues";
import { runsRouter } from "./routers/runs";
import { settingsRouter } from "./routers/settings";
import { auditRouter } from "./routers/audit";
import { sharingRouter } from "./routers/sharing";
import { sqlRouter } from "./routers/sql";
import { traceRouter } from "./routers/trace";
import { viewsRouter } from "./routers/views";
import { workspacesRouter } from "./routers/workspaces";

/** One router per domain; add yours on its own line. */
export const appRouter = router({
  account: accountRouter,
  workspaces: workspacesRouter,
  projects: projectsRouter,
  runs: runsRouter,
  trace: traceRouter,
  feedback: feedbackRouter,
  charts: chartsRouter,
  conversation: conversationRouter,
  settings: settingsRouter,
  audit: auditRouter,
  datasets: datasetsRouter,
  experiments: experimentsRouter,
  prompts: promptsRouter,
  queues: queuesRouter,
  models: modelsRouter,
  playground: playgroundRouter,
  evaluators: evaluatorsRouter,
  sharing: sharingRouter,
  sql: sqlRouter,
  views: viewsRouter,
  alerts: alertsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side calls (server components, tests) without HTTP. */
export const createCaller = createCallerFactory(appRouter);
