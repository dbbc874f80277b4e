import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { publicRunsQuery, publicRunsV2 } from "@/server/sharing/public-v2";
import { wireRunV2 } from "@/server/runs/v2";

/** Every run of a shared trace, no key needed (`client.public.runs.query`). */
export const POST = route({
  access: "public",
  body: publicRunsQuery,
  response: z.object({ items: z.array(wireRunV2) }),
  handler: ({ ctx, params, body }) => publicRunsV2(ctx.sql, params.token, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
