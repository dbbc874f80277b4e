import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { publicRunQuery, publicRunV2 } from "@/server/sharing/public-v2";
import { wireRunV2 } from "@/server/runs/v2";

/** One run of a shared trace, no key needed (`client.public.runs.retrieve`). */
export const GET = route({
  access: "public",
  query: publicRunQuery,
  response: wireRunV2,
  handler: ({ ctx, params, query }) => publicRunV2(ctx.sql, params.token, params.runId, query.selects),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
