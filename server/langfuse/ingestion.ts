import type { Sql } from "../db/client";
import { runsByIds } from "../runs/lookup";
import { formatMicros, isoFromDb, parseInstant } from "../core/time";
import { ingestBatch } from "../ingest/service";
import type { WireRun } from "../ingest/schema";
import { mapBatch, type TraceTimes } from "./to-runs";
import type { IngestionResponse } from "./schema";

/** The project runs go to when the caller sent no public key (x-api-key, or Basic with an empty user). */
const DEFAULT_PROJECT = "default";

const micros = (value: unknown): bigint | null => {
  const iso = isoFromDb(value);
  return iso === null ? null : parseInstant(iso);
};
const known = (values: (bigint | null)[]) => values.filter((v): v is bigint => v !== null);
const earliest = (...values: (bigint | null)[]) => known(values).reduce<bigint | null>((a, b) => (a === null || b < a ? b : a), null);
const latest = (...values: (bigint | null)[]) => known(values).reduce<bigint | null>((a, b) => (a === null || b > a ? b : a), null);

/**
 * A Langfuse trace has a start (its timestamp, re-sent with every `trace.update()`) and no end. Its
 * root run starts at the earliest timestamp seen and ends at the latest time any of its events
 * mentions — kept across requests by reading the stored root once per request (one set-based
 * statement, outside ingest), so a later update never moves the start forward or the end back.
 * A root not stored yet and not created in this request is left alone: a patch would make a
 * provisional root that its create then re-places under its children.
 */
async function rootTimePatches(db: Sql, workspaceId: string, traces: Map<string, TraceTimes>, project: string): Promise<WireRun[]> {
  if (traces.size === 0) return [];
  const rows = await runsByIds<{ id: string; start_time: unknown; end_time: unknown }>(
    db,
    workspaceId,
    [...traces.keys()],
    ["start_time", "end_time"],
  );
  const stored = new Map(rows.map((r) => [r.id, { start: micros(r.start_time), end: micros(r.end_time) }]));
  const patches: WireRun[] = [];
  for (const [id, times] of traces) {
    const prior = stored.get(id);
    if (times.created) {
      // A trace sent with no time at all starts when ingest stores it (its rule for a run without one).
      const start = earliest(times.start, prior?.start ?? null, times.latest);
      const end = latest(times.latest, prior?.end ?? null, start);
      if (start !== null && end !== null) {
        patches.push({ id, session_name: project, start_time: formatMicros(start), end_time: formatMicros(end) });
      }
    } else if (prior) {
      const end = latest(times.latest, prior.end, prior.start);
      if (end !== null && end !== prior.end) patches.push({ id, end_time: formatMicros(end) });
    }
  }
  return patches;
}

/**
 * POST /api/public/ingestion: a Langfuse SDK batch stored through the one ingest (`ingestBatch`:
 * merged, placed, tokens and cost derived, refusals logged), answered per event as Langfuse does
 * (207): an event whose run or score was refused is an error naming why, the rest are successes.
 */
export async function ingestLangfuseBatch(
  db: Sql,
  workspaceId: string,
  publicKey: string | undefined,
  batch: unknown[],
): Promise<IngestionResponse> {
  const project = publicKey?.trim() || DEFAULT_PROJECT;
  const mapped = mapBatch(batch, project);
  const roots = await rootTimePatches(db, workspaceId, mapped.traces, project);
  const result = await ingestBatch(db, workspaceId, {
    post: mapped.posts,
    patch: [...mapped.patches, ...roots],
    feedback: mapped.feedback,
  });
  const refused = new Map(result.rejected.map((r) => [r.id, r.detail]));
  const response: IngestionResponse = { successes: [], errors: [...mapped.errors] };
  for (const { id, target } of mapped.targets) {
    const detail = target === null ? undefined : refused.get(target);
    if (detail === undefined) response.successes.push({ id, status: 201 });
    else response.errors.push({ id, status: 400, message: detail });
  }
  return response;
}
