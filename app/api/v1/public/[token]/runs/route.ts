import { methodNotAllowed } from "@/server/http/not-found";
import { route, searchObject } from "@/server/http/route";
import { sharedRunsRequest } from "@/server/sharing/public-routes";

/** The runs of a shared trace as a flat array; `id` (repeated) narrows it. */
export const GET = route({
  access: "public",
  handler: ({ ctx, params, request }) => sharedRunsRequest(ctx.sql, params.token, searchObject(new URL(request.url))),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
