import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest, forbidden, notFound } from "../core/errors";
import { readRun } from "../runs/read";
import { listFeedbackConfigs } from "../feedback/configs";
import { feedbackOnRunAndTrace, feedbackOnThread } from "../feedback/trace";
import { createFeedback, deleteFeedback, readFeedback, updateFeedback } from "../feedback/service";
import type { WireFeedback } from "../feedback/wire";
import type { FeedbackUpdate } from "../feedback/schema";
import type { Role } from "../auth/policy";

/** What a reviewer enters in the run view. */
export interface ReviewInput {
  key: string;
  score: number | null;
  value?: unknown;
  comment: string | null;
  correction?: unknown;
}

/** The reviewer's feedback checked against the workspace's config for its key; the message says why not. */
export async function checkAgainstConfig(db: Sql, workspaceId: string, input: Pick<ReviewInput, "key" | "score" | "value">): Promise<void> {
  const [config] = await listFeedbackConfigs(db, workspaceId, { key: [input.key], offset: 0, limit: 1 });
  if (!config) return;
  const c = config.feedback_config;
  if (c.type === "continuous" && input.score !== null) {
    const min = c.min ?? Number.NEGATIVE_INFINITY;
    const max = c.max ?? Number.POSITIVE_INFINITY;
    if (input.score < min || input.score > max) {
      throw badRequest(`Score ${input.score} is outside the range of "${input.key}": ${c.min ?? "-∞"} to ${c.max ?? "∞"}.`);
    }
  }
  if (c.type === "categorical") {
    const allowed = (c.categories ?? []).map((cat) => cat.value);
    const given = input.score ?? input.value;
    if (given !== null && given !== undefined && !allowed.some((v) => v === given || String(v) === String(given))) {
      throw badRequest(`"${String(given)}" is not a category of "${input.key}": choose one of ${allowed.map(String).join(", ")}.`);
    }
  }
}

/** A reviewer's feedback from the UI: on a run of the workspace, checked against its config, signed with the user. */
export async function createReview(db: Sql, workspaceId: string, userId: string, runId: string, input: ReviewInput): Promise<WireFeedback> {
  if (!(await readRun(db, workspaceId, runId))) throw notFound(`Run ${runId} not found.`);
  await checkAgainstConfig(db, workspaceId, input);
  return createFeedback(db, workspaceId, {
    run_id: runId,
    key: input.key,
    score: input.score,
    value: input.value ?? null,
    comment: input.comment,
    correction: input.correction ?? null,
    feedback_source: { type: "app", metadata: { user_id: userId } },
  });
}

const authorOf = (feedback: WireFeedback) =>
  ((feedback.feedback_source as { metadata?: { user_id?: unknown } } | null)?.metadata?.user_id as string | undefined) ?? null;

/** Reviewers change and remove only their own feedback (admins may remove anyone's). */
async function ownFeedback(db: Sql, workspaceId: string, userId: string, id: string, admin = false): Promise<WireFeedback> {
  const feedback = await readFeedback(db, workspaceId, id);
  if (authorOf(feedback) !== userId && !admin) throw forbidden("Only the reviewer who left this feedback can change it.");
  return feedback;
}

export async function updateReview(
  db: Sql,
  workspaceId: string,
  userId: string,
  id: string,
  change: Omit<ReviewInput, "key">,
): Promise<WireFeedback> {
  const feedback = await ownFeedback(db, workspaceId, userId, id);
  await checkAgainstConfig(db, workspaceId, { key: feedback.key, score: change.score, value: change.value });
  return updateFeedback(db, workspaceId, id, {
    score: change.score,
    value: change.value ?? null,
    comment: change.comment,
    correction: change.correction ?? null,
  });
}

export async function deleteReview(db: Sql, workspaceId: string, userId: string, id: string, admin: boolean): Promise<void> {
  await ownFeedback(db, workspaceId, userId, id, admin);
  await deleteFeedback(db, workspaceId, id);
}

/** The REST caller changing feedback: an annotator changes only its own; admins and members any (the SDKs' use). */
async function assertMayChange(db: Sql, workspaceId: string, caller: { role: Role; userId?: string }, id: string): Promise<void> {
  if (caller.role === "annotator") await ownFeedback(db, workspaceId, caller.userId ?? "", id);
}

/** PATCH /feedback/{id}. */
export async function patchFeedbackAs(
  db: Sql,
  workspaceId: string,
  caller: { role: Role; userId?: string },
  id: string,
  change: FeedbackUpdate,
) {
  await assertMayChange(db, workspaceId, caller, id);
  return updateFeedback(db, workspaceId, id, change);
}

/** DELETE /feedback/{id}. */
export async function deleteFeedbackAs(db: Sql, workspaceId: string, caller: { role: Role; userId?: string }, id: string): Promise<void> {
  await assertMayChange(db, workspaceId, caller, id);
  await deleteFeedback(db, workspaceId, id);
}

export type ReviewedFeedback = WireFeedback & { author: { user_id: string; name: string } | null; mine: boolean };

/** Each feedback with the name of the reviewer who left it (when a person did) and whether the signed-in user did. */
async function withAuthors(db: Sql, workspaceId: string, userId: string, feedback: WireFeedback[]): Promise<ReviewedFeedback[]> {
  const ids = [...new Set(feedback.map(authorOf).filter((id): id is string => !!id && /^[0-9a-f-]{36}$/i.test(id)))];
  const users = ids.length
    ? await db.query<{ id: string; name: string | null; email: string }>(sql`
        SELECT u.id, u.name, u.email FROM users u JOIN memberships m ON m.user_id = u.id
        WHERE m.workspace_id = ${workspaceId} AND u.id = ANY(${ids}::uuid[])`)
    : [];
  const names = new Map(users.map((u) => [u.id, u.name || u.email]));
  return feedback.map((f) => {
    const id = authorOf(f);
    return { ...f, author: id && names.has(id) ? { user_id: id, name: names.get(id)! } : null, mine: id === userId };
  });
}

/**
 * Feedback on the run and its trace, each with the name of the reviewer who left it (when a person
 * did) and whether the signed-in user left it (and so may change it).
 */
export async function reviewsOnRun(
  db: Sql,
  workspaceId: string,
  userId: string,
  runId: string,
  traceId: string | null,
): Promise<ReviewedFeedback[]> {
  return withAuthors(db, workspaceId, userId, await feedbackOnRunAndTrace(db, workspaceId, runId, traceId));
}

/** Feedback on a whole thread, with its reviewers' names. */
export async function reviewsOnThread(
  db: Sql,
  workspaceId: string,
  userId: string,
  projectId: string,
  threadId: string,
): Promise<ReviewedFeedback[]> {
  return withAuthors(db, workspaceId, userId, await feedbackOnThread(db, workspaceId, projectId, threadId));
}

/**
 * A reviewer's feedback on a whole thread (LangSmith's thread feedback): on the project with the
 * thread's id, no run; checked against its key's config and signed with the user, like a run's.
 */
export async function createThreadReview(
  db: Sql,
  workspaceId: string,
  userId: string,
  projectId: string,
  threadId: string,
  input: ReviewInput,
): Promise<WireFeedback> {
  const [turn] = await db.query<{ id: string }>(sql`
    SELECT id FROM runs WHERE workspace_id = ${workspaceId} AND project_id = ${projectId}::uuid AND thread_id = ${threadId} LIMIT 1`);
  if (!turn) throw notFound(`Thread ${JSON.stringify(threadId)} not found in this project.`);
  await checkAgainstConfig(db, workspaceId, input);
  return createFeedback(db, workspaceId, {
    session_id: projectId,
    thread_id: threadId,
    key: input.key,
    score: input.score,
    value: input.value ?? null,
    comment: input.comment,
    correction: input.correction ?? null,
    feedback_source: { type: "app", metadata: { user_id: userId } },
  });
}
