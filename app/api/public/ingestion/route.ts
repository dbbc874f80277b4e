import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { ingestLangfuseBatch } from "@/server/langfuse/ingestion";
import { ingestionBody, ingestionResponse } from "@/server/langfuse/schema";

/** Langfuse's batch ingestion (the `langfuse` SDKs): HTTP Basic public key : Tracelight API key. */
export const POST = route({
  access: "write",
  basicAuth: true,
  ingest: true,
  body: ingestionBody,
  response: ingestionResponse,
  status: 207,
  handler: ({ ctx, body }) => ingestLangfuseBatch(ctx.sql, ctx.workspaceId, ctx.identity.publicKey, body.batch),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
