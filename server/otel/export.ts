import type { Sql } from "../db/client";
import { env } from "../env";
import { unsupportedMediaType } from "../http/errors";
import { ingestRuns } from "../ingest/service";
import { decodeExportRequest, encodeErrorStatus, encodeExportResponse, encodingOf, type OtlpEncoding } from "./decode";
import { OtlpContentTypeError, OtlpDecodeError } from "./otlp";
import { spansToRuns, type WireRun } from "./to-runs";

export interface ExportInput {
  bytes: Buffer;
  contentType: string;
  /** The `Langsmith-Project` header. */
  projectName?: string;
}

function answer(status: number, body: { body: Uint8Array; contentType: string }): Response {
  return new Response(body.body.length ? Buffer.from(body.body) : null, { status, headers: { "content-type": body.contentType } });
}

/**
 * Parents before children, so a request larger than one ingest batch never splits a child from a
 * parent it could be placed under; runs left for ingest to place go last.
 */
function batches(runs: WireRun[], size: number): WireRun[][] {
  const depth = (r: WireRun) => (r.dotted_order ? r.dotted_order.split(".").length : Number.MAX_SAFE_INTEGER);
  const ordered = runs.length > size ? [...runs].sort((a, b) => depth(a) - depth(b)) : runs;
  const out: WireRun[][] = [];
  for (let i = 0; i < ordered.length; i += size) out.push(ordered.slice(i, i + size));
  return out;
}

/**
 * One OTLP/HTTP traces export: decode, map, ingest; answered per the OTLP spec in the request's
 * encoding (200 with partialSuccess when spans were rejected, 400 with a Status for bad data).
 */
export async function exportTraces(db: Sql, workspaceId: string, input: ExportInput): Promise<Response> {
  let encoding: OtlpEncoding;
  try {
    encoding = encodingOf(input.contentType);
  } catch (error) {
    if (error instanceof OtlpContentTypeError) throw unsupportedMediaType(error.message);
    throw error;
  }
  let request;
  try {
    request = decodeExportRequest(input.bytes, input.contentType);
  } catch (error) {
    if (error instanceof OtlpDecodeError) return answer(400, encodeErrorStatus(3, error.message, encoding));
    throw error;
  }
  const { runs, rejected } = spansToRuns(request, { projectName: input.projectName?.trim() || undefined });
  for (const batch of batches(runs, env().MAX_BATCH_RUNS)) {
    await ingestRuns(db, workspaceId, { post: batch });
  }
  const partial = rejected.count ? { rejectedSpans: rejected.count, errorMessage: rejected.message } : null;
  return answer(200, encodeExportResponse(partial, input.contentType));
}
