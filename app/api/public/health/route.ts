import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { langfuseHealth } from "@/server/langfuse/health";

/** Langfuse's health check: `{status: "OK", version}`, no credentials needed. */
export const GET = route({
  access: "public",
  answers: { contentType: "application/json", description: 'Langfuse\'s health answer: `{"status": "OK", "version": …}`.' },
  handler: ({ ctx }) => langfuseHealth(ctx.sql),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
