import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queryFromRunsSegment, sharedRunsRequest } from "@/server/sharing/public-routes";
import { wirePublicRun } from "@/server/sharing/public-runs";

/** `/public/{t}/runsshare_token=…` as the JS SDK sends it; see queryFromRunsSegment. */
export const GET = route({
  access: "public",
  response: z.array(wirePublicRun),
  handler: ({ ctx, params }) => sharedRunsRequest(ctx.sql, params.token, queryFromRunsSegment(params.view)),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
