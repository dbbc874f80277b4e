import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { env } from "../env";
import { deriveLlm, type PriceEntry } from "../llm/derive";
import { workspacePriceEntries } from "../llm/workspace-prices";
import { AppError, conflict, dataErrorDetail, notFound, payloadTooLarge } from "../core/errors";
import { sql } from "../db/sql";
import { attachFeedbackToRuns, attachFeedbackUpdate, feedbackOnRuns } from "../feedback/store";
import { storeFeedbackParts } from "../feedback/service";
import { usageOfInsertedRuns } from "../billing/outbox";
import { storeAttachments, type IncomingAttachment } from "../blobs/attachments";
import { runsStored } from "./after-ingest";
import { ingestedRuns } from "../core/metrics";
import { foldOperations } from "./merge";
import { placeRuns } from "./placement";
import { repairPendingPlacements } from "../runs/placement";
import { refreshTraceTotals, traceTotalsAdd, traceTotalsUpsert, type InsertedRun } from "../runs/trace-totals";
import { DEFAULT_PROJECT, resolveProjects } from "./projects";
import { derivedColumns, newRow, providedRow, withTimes, type TimedRun } from "./rows";
import { recordRefusals } from "./errors-log";
import { checkRuns, type WireRun } from "./schema";
import { insertNewStatement, loadForDerive, pendingChildrenCount, updateExisting, writeDerived, type RunRow } from "../runs/write";

export interface IngestInput {
  post?: WireRun[];
  patch?: WireRun[];
  attachments?: IncomingAttachment[];
  /** `feedback.<id>` parts of a multipart request, stored with the runs. */
  feedback?: unknown[];
}

/** A run of the request that was not stored, and why. */
export interface RejectedRun {
  id: string;
  detail: string;
}

export interface IngestResult {
  created: number;
  updated: number;
  /** Runs refused for their own content; the rest of the request was stored. */
  rejected: RejectedRun[];
}

function checkBatchSize(input: IngestInput): void {
  const count = (input.post?.length ?? 0) + (input.patch?.length ?? 0);
  const limit = env().MAX_BATCH_RUNS;
  if (count > limit) {
    throw payloadTooLarge(`This request carries ${count} run operations; the limit is ${limit} per request. Split the batch.`);
  }
}

/** Placement is (re)computed only when the request says where the run sits: a post, a dotted_order or a parent. */
function hasPlacementInfo(run: TimedRun): boolean {
  return run.posted || !!run.fields.dotted_order || !!run.fields.parent_run_id;
}

/** Why one run's content was refused (a 4xx of ours, or PostgreSQL refusing a value), or null. */
function runFault(error: unknown): string | null {
  if (error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 413) return error.detail;
  return dataErrorDetail(error);
}

/** The request split into one request per run (its post, patches and attachments), feedback last. */
function perRun(input: IngestInput): { id: string; input: IngestInput }[] {
  const ids = [...new Set([...(input.post ?? []), ...(input.patch ?? [])].map((r) => r.id ?? ""))];
  const parts: { id: string; input: IngestInput }[] = ids.map((id) => ({
    id,
    input: {
      post: input.post?.filter((r) => (r.id ?? "") === id),
      patch: input.patch?.filter((r) => (r.id ?? "") === id),
      attachments: input.attachments?.filter((a) => a.runId === id),
    },
  }));
  if (input.feedback?.length) parts.push({ id: "feedback", input: { feedback: input.feedback } });
  return parts;
}

/**
 * The one ingest use case behind POST /runs, PATCH /runs/{id}, /runs/batch, /runs/multipart and
 * OTLP: merge the request's operations in memory, then write them in one transaction as a few
 * set-based statements. When one run's content is refused, the request is stored again run by run,
 * so that run costs only itself: the others are stored and it is listed in `rejected`.
 */
export async function ingestRuns(db: Sql, workspaceId: string, input: IngestInput): Promise<IngestResult> {
  checkBatchSize(input);
  const result = await ingestOrRefuseEach(db, workspaceId, input);
  ingestedRuns.inc({ outcome: "stored" }, result.created + result.updated);
  if (result.rejected.length) ingestedRuns.inc({ outcome: "refused" }, result.rejected.length);
  return result;
}

async function ingestOrRefuseEach(db: Sql, workspaceId: string, input: IngestInput): Promise<IngestResult> {
  try {
    return await ingestTogether(db, workspaceId, input);
  } catch (error) {
    const parts = perRun(input);
    if (parts.length <= 1 || runFault(error) === null) throw error;
    const result: IngestResult = { created: 0, updated: 0, rejected: [] };
    for (const part of parts) {
      try {
        const stored = await ingestTogether(db, workspaceId, part.input);
        result.created += stored.created;
        result.updated += stored.updated;
      } catch (partError) {
        const detail = runFault(partError);
        if (detail === null) throw partError;
        result.rejected.push({ id: part.id, detail });
      }
    }
    return result;
  }
}

/**
 * POST /runs/batch and /runs/multipart: each run is checked on its own; the valid ones are stored
 * (see ingestRuns), and every refused one is answered and recorded in the workspace's ingest-error log.
 */
export async function ingestBatch(
  db: Sql,
  workspaceId: string,
  input: { post?: unknown[] | null; patch?: unknown[] | null; attachments?: IncomingAttachment[]; feedback?: unknown[] },
): Promise<IngestResult> {
  const posts = checkRuns(input.post ?? [], "post");
  const patches = checkRuns(input.patch ?? [], "patch");
  const kept = new Set([...posts.runs, ...patches.runs].map((r) => r.id));
  const result = await ingestRuns(db, workspaceId, {
    post: posts.runs,
    patch: patches.runs,
    attachments: input.attachments?.filter((a) => kept.has(a.runId)),
    feedback: input.feedback,
  });
  const rejected = [...posts.rejected, ...patches.rejected, ...result.rejected];
  const sent = new Map([...posts.runs, ...patches.runs].map((r) => [r.id, r]));
  await recordRefusals(
    db,
    workspaceId,
    rejected.map((r) => ({ ...r, run: sent.get(r.id) })),
  );
  return { ...result, rejected };
}

async function ingestTogether(db: Sql, workspaceId: string, input: IngestInput): Promise<IngestResult> {
  const runs = foldOperations(input.post ?? [], input.patch ?? [], randomUUID).map(withTimes);
  if (runs.length === 0 && !input.attachments?.length && !input.feedback?.length) return { created: 0, updated: 0, rejected: [] };

  // The workspace's own prices, read once per request (and cached briefly), win over the shipped table.
  const prices = runs.length ? await workspacePriceEntries(db, workspaceId) : [];
  const result = await db.tx(async (tx) => {
    const projects = await resolveProjects(tx, workspaceId, [
      ...runs
        .filter((r) => r.fields.session_id || r.fields.session_name)
        .map((r) => ({ sessionId: r.fields.session_id, sessionName: r.fields.session_name })),
      { sessionName: DEFAULT_PROJECT },
    ]);
    const projectOf = (run: TimedRun): string | undefined => {
      if (run.fields.session_id) return run.fields.session_id;
      if (run.fields.session_name) return projects.byName.get(run.fields.session_name);
      return run.posted ? projects.byName.get(DEFAULT_PROJECT) : undefined;
    };
    const placements = await placeRuns(
      tx,
      workspaceId,
      runs.filter(hasPlacementInfo).map((r) => ({
        id: r.id,
        traceId: r.fields.trace_id,
        parentRunId: r.fields.parent_run_id,
        dottedOrder: r.fields.dotted_order,
        startMicros: r.start ?? r.end ?? BigInt(Date.now()) * 1000n,
      })),
    );

    const provided = new Map(runs.map((run) => [run.id, providedRow(run, placements.get(run.id), projectOf(run))]));
    const providedOf = (run: TimedRun) => provided.get(run.id)!;
    // A run only patched is usually stored already: update it first. A posted run usually is not:
    // insert it first, so its row is not sent twice; the ones already stored are updated below.
    const updated = new Set(await updateExisting(tx, workspaceId, runs.filter((r) => !r.posted).map(providedOf)));
    const fresh = runs.filter((r) => !updated.has(r.id));
    const defaultProject = projects.byName.get(DEFAULT_PROJECT)!;
    const newRows = fresh.map((run) => newRow(run, providedOf(run), placements.get(run.id), defaultProject, prices));
    // Billing counts runs created and traces begun (root runs created), in the same statement.
    const insertedRuns =
      newRows.length === 0
        ? []
        : await tx.query<InsertedRun>(sql`
      WITH inserted_runs AS (${insertNewStatement(workspaceId, newRows)}), usage AS (${usageOfInsertedRuns(workspaceId)})
      SELECT * FROM inserted_runs`);
    const inserted = new Set(insertedRuns.map((r) => r.id));
    // Posted runs already stored, and runs a concurrent request inserted first: apply ours on top.
    const stored = fresh.filter((r) => !inserted.has(r.id)).map(providedOf);
    for (const id of await updateExisting(tx, workspaceId, stored)) updated.add(id);
    // Run ids are global: an id another workspace already uses is neither inserted nor updated here,
    // and answered as if unknown here (a patch: not found), never saying where it exists.
    const taken = fresh.filter((r) => !inserted.has(r.id) && !updated.has(r.id));
    if (taken.length && !taken.some((r) => r.posted)) throw notFound(`Run ${taken.map((r) => r.id).join(", ")} not found.`);
    if (taken.length) throw conflict(`Run ${taken.map((r) => r.id).join(", ")} already exists; send it with a new id.`);

    await rederive(tx, workspaceId, [...updated], prices);
    const ids = runs.map((r) => r.id);
    if (ids.length) {
      // One statement: the traces' totals, feedback that arrived before these runs, and whether stored
      // runs wait for these as parents. When such runs were repaired, totals and feedback are
      // computed again on the repaired placements.
      // Runs only inserted add to their traces' totals, and have feedback to attach only when it was
      // sent before them (looked up first: rare, and the attach is planned over every partition of
      // runs). An update may change what a run added and where its feedback belongs, so then the
      // traces are summed again from their runs and the feedback attached as it is.
      const [after] = await tx.query<{ pending: number; early_feedback: boolean }>(
        updated.size === 0
          ? sql`
        WITH totals AS (${traceTotalsAdd(workspaceId, insertedRuns)})
        SELECT (${pendingChildrenCount(workspaceId, ids)}) AS pending, (${feedbackOnRuns(workspaceId, ids)}) AS early_feedback`
          : sql`
        WITH totals AS (${traceTotalsUpsert(workspaceId, ids)}), attached AS (${attachFeedbackUpdate(workspaceId, ids)})
        SELECT (${pendingChildrenCount(workspaceId, ids)}) AS pending, false AS early_feedback`,
      );
      if (after.early_feedback) await attachFeedbackToRuns(tx, workspaceId, ids);
      if (after.pending > 0 && (await repairPendingPlacements(tx, workspaceId)) > 0) {
        await refreshTraceTotals(tx, workspaceId, ids);
        await attachFeedbackToRuns(tx, workspaceId, ids);
      }
    }
    if (input.attachments?.length) await storeAttachments(tx, workspaceId, input.attachments);
    // Feedback parts after the runs, so feedback on a run of this request gets its trace and project.
    if (input.feedback?.length) {
      await storeFeedbackParts(tx, workspaceId, input.feedback);
      if (ids.length) await attachFeedbackToRuns(tx, workspaceId, ids);
    }
    return { created: inserted.size, updated: updated.size, rejected: [] };
  });
  // After the commit, off the request path: automation rules (and whatever else registered).
  runsStored(
    db,
    workspaceId,
    runs.map((r) => r.id),
  );
  return result;
}

/** Runs completed across requests (post, then patch) get their derived columns from the merged row. */
async function rederive(db: Sql, workspaceId: string, ids: string[], prices: readonly PriceEntry[]): Promise<void> {
  const stored = await loadForDerive(db, workspaceId, ids);
  const rows: RunRow[] = stored.map((run) => ({
    id: run.id,
    ...derivedColumns(
      deriveLlm(
        {
          run_type: run.run_type,
          inputs: run.inputs,
          outputs: run.outputs,
          extra: run.extra,
          events: run.events,
          start_time: new Date(run.start_time),
          end_time: run.end_time ? new Date(run.end_time) : null,
        },
        prices,
      ),
    ),
  }));
  await writeDerived(db, workspaceId, rows);
}
