import { otlpJsonOf, otlpProtobufOf } from "./otlp";
import { makeTrace, multipartOf } from "./payloads";

export const INGEST_MODES = ["multipart", "batch", "otlp-proto", "otlp-json"] as const;
export type IngestMode = (typeof INGEST_MODES)[number];

export interface IngestRequest {
  path: string;
  body: BodyInit;
  contentType: string;
}

/** One ingest request of 10 traces × 10 runs (or spans) as the SDKs send them, encoded before any clock starts. */
export function ingestRequest(mode: IngestMode, project = "bench"): IngestRequest {
  const runs = Array.from({ length: 10 }, () => makeTrace(project, 4, 5)).flat();
  if (mode === "multipart") {
    const m = multipartOf(runs);
    return { path: "/runs/multipart", body: m.body as unknown as BodyInit, contentType: m.contentType };
  }
  if (mode === "batch") return { path: "/runs/batch", body: JSON.stringify({ post: runs, patch: [] }), contentType: "application/json" };
  if (mode === "otlp-proto")
    return { path: "/otel/v1/traces", body: otlpProtobufOf(runs) as unknown as BodyInit, contentType: "application/x-protobuf" };
  return { path: "/otel/v1/traces", body: otlpJsonOf(runs), contentType: "application/json" };
}

/** Sends one ingest request; a refusal (or an OTLP partialSuccess naming rejected spans) fails the bench. */
export async function sendIngest(server: { url: string; apiKey: string }, request: IngestRequest): Promise<void> {
  const r = await fetch(`${server.url}${request.path}`, {
    method: "POST",
    headers: { "x-api-key": server.apiKey, "content-type": request.contentType },
    body: request.body,
  });
  const answer = await r.text();
  if (r.status >= 300 || (request.path.startsWith("/otel") && answer.length > 2)) throw new Error(`${request.path}: ${r.status} ${answer}`);
}
