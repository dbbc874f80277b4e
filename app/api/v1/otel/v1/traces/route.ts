import { methodNotAllowed } from "@/server/http/not-found";
import { serveDirectly } from "@/server/http/direct";
import { route } from "@/server/http/route";
import { exportTraces } from "@/server/otel/export";

/** OTLP/HTTP trace export (protobuf or JSON); also served at /otel/v1/traces. */
export const POST = route({
  answers: {
    contentType: "application/x-protobuf",
    description: "An OTLP ExportTraceServiceResponse, in the request's encoding (protobuf or JSON); partial_success names refused spans.",
  },
  access: "write",
  ingest: true,
  body: "bytes",
  handler: ({ ctx, body, request }) =>
    exportTraces(ctx.sql, ctx.workspaceId, {
      bytes: body.bytes,
      contentType: body.contentType,
      projectName: request.headers.get("langsmith-project") ?? undefined,
    }),
});

serveDirectly("POST", "/api/v1/otel/v1/traces", POST);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
