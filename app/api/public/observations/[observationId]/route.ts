import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { readLangfuseObservation } from "@/server/langfuse/read";

/** Langfuse's `getObservation`, by the id it was sent with. */
export const GET = route({
  answers: {
    contentType: "application/json",
    description: "The observation in Langfuse's shape (a run of the project the public key names).",
  },
  access: "read",
  basicAuth: true,
  replica: true,
  params: z.object({ observationId: z.string() }),
  handler: ({ ctx, params }) => readLangfuseObservation(ctx.sql, ctx.workspaceId, ctx.identity.publicKey, params.observationId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
