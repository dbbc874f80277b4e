import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route, searchObject } from "@/server/http/route";
import { sharedRunsRequest } from "@/server/sharing/public-routes";
import { wirePublicRun } from "@/server/sharing/public-runs";

/** The runs of a shared trace as a flat array; `id` (repeated) narrows it. */
export const GET = route({
  access: "public",
  response: z.array(wirePublicRun),
  handler: ({ ctx, params, request }) => sharedRunsRequest(ctx.sql, params.token, searchObject(new URL(request.url))),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
