import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { populate } from "@/server/review/queues/schema";
import { populateQueue } from "@/server/review/queues/service";

/** Adds the root runs of experiments to a queue. */
export const POST = route({
  access: "write",
  body: populate,
  response: z.object({ added: z.number() }),
  handler: ({ ctx, body }) => populateQueue(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
