import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { exportTraces } from "@/server/otel/export";

/**
 * Langfuse's OTLP endpoint (`@langfuse/otel`, the Python SDK v3+): the OTLP export with HTTP Basic
 * public key : Tracelight API key, the public key naming the project; `langfuse.*` attributes are
 * read by the OTel mapping's Langfuse adapter.
 */
export const POST = route({
  access: "write",
  basicAuth: true,
  ingest: true,
  body: "bytes",
  answers: {
    contentType: "application/x-protobuf",
    description: "An OTLP ExportTraceServiceResponse, in the request's encoding (protobuf or JSON); partial_success names refused spans.",
  },
  handler: ({ ctx, body }) =>
    exportTraces(ctx.sql, ctx.workspaceId, { bytes: body.bytes, contentType: body.contentType, projectName: ctx.identity.publicKey }),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
