import { notFound } from "@/server/http/errors";
import { route } from "@/server/http/route";
import { sharedRunsRequest } from "@/server/sharing/public-routes";

/**
 * The JS SDK's listSharedRuns forgets the `?` and asks for `/public/{t}/runsshare_token=…&id=…`:
 * such a path is read as `/public/{t}/runs` with that query. Anything else is not found.
 */
export const GET = route({
  access: "public",
  handler: ({ ctx, params }) => {
    const view = decodeURIComponent(params.view);
    if (!view.startsWith("runs")) throw notFound(`No public view "${view}".`);
    const query: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(view.slice("runs".length))) {
      const prior = query[key];
      query[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
    }
    return sharedRunsRequest(ctx.sql, params.token, query);
  },
});
