import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { env } from "../env";
import { unsupportedMediaType } from "../core/errors";
import { recordRefusals } from "../ingest/errors-log";
import { ingestRuns, type RejectedRun } from "../ingest/service";
import { runTextFault } from "../ingest/limits";
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
  let ordered = runs;
  if (runs.length > size) {
    // Each run's depth once (not once per comparison: 10,000 spans make 130,000 of them).
    const depth = new Map(runs.map((r) => [r, r.dotted_order ? r.dotted_order.split(".").length : Number.MAX_SAFE_INTEGER]));
    ordered = [...runs].sort((a, b) => depth.get(a)! - depth.get(b)!);
  }
  const out: WireRun[][] = [];
  for (let i = 0; i < ordered.length; i += size) out.push(ordered.slice(i, i + size));
  return out;
}

/**
 * A `langsmith.trace.session_id` naming no project of the workspace would make ingest refuse the
 * whole export; those runs go to the default project instead, and the answer carries a warning.
 */
async function withKnownSessions(db: Sql, workspaceId: string, runs: WireRun[]): Promise<string | null> {
  const ids = [...new Set(runs.map((r) => r.session_id).filter((id): id is string => !!id))];
  if (ids.length === 0) return null;
  const rows = await db.query<{ id: string }>(
    sql`SELECT id FROM projects WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[])`,
  );
  const known = new Set(rows.map((r) => r.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length === 0) return null;
  for (const run of runs) {
    if (run.session_id && !known.has(run.session_id)) {
      delete run.session_id;
      run.session_name = "default";
    }
  }
  return `Unknown project id${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} in langsmith.trace.session_id; those spans were stored in "default".`;
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
  const { runs: mapped, rejected } = spansToRuns(request, { projectName: input.projectName?.trim() || undefined });
  // The limits a run posted to REST meets in its wire schema: a span past them is refused alone.
  const refused: RejectedRun[] = [];
  const runs = mapped.filter((run) => {
    const fault = runTextFault(run);
    if (fault) refused.push({ id: run.id, detail: `Invalid span: ${fault}.` });
    return !fault;
  });
  const warning = await withKnownSessions(db, workspaceId, runs);
  for (const batch of batches(runs, env().MAX_BATCH_RUNS)) {
    refused.push(...(await ingestRuns(db, workspaceId, { post: batch })).rejected);
  }
  const sent = new Map(refused.length ? mapped.map((run) => [run.id, run]) : []);
  await recordRefusals(
    db,
    workspaceId,
    refused.map((r) => ({ ...r, run: sent.get(r.id) })),
  );
  const refusedMessage = refused.length
    ? `${refused.length} span(s) refused: ${refused
        .slice(0, 3)
        .map((r) => `${r.id}: ${r.detail}`)
        .join("; ")}`
    : "";
  const message = [rejected.message, refusedMessage, warning].filter(Boolean).join(" ");
  // OTLP: a partial success with zero rejected spans and a message is a warning.
  const partial = message ? { rejectedSpans: rejected.count + refused.length, errorMessage: message } : null;
  return answer(200, encodeExportResponse(partial, input.contentType));
}
