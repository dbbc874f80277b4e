import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

/** What each procedure answers, as the services type it: the UI's only source of wire types. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;

/** A run as the runs table shows it. */
export type RunSummary = RouterOutputs["runs"]["list"]["runs"][number];
/** A run with everything, as the run detail shows it. */
export type RunFull = RouterOutputs["runs"]["get"];
