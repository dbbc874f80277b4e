import { z } from "zod";
import type { Sql } from "../../db/client";
import type { Role } from "../../auth/policy";
import { assertReviews } from "./reviewers";
import { badRequest } from "../../core/errors";
import { uuid } from "../../core/uuid";
import { createExamples } from "../../datasets/examples";
import { createFeedback, updateFeedback } from "../../feedback/service";
import { readRun } from "../../runs/read";
import { checkAgainstConfig } from "../feedback";
import { loadItem } from "./items";
import { reviewerNames } from "./progress";
import { loadQueue } from "./queues";
import { preferenceAnswers } from "./preferences";
import { finishReview } from "./reviewing";
import type { RubricItem } from "./schema";

const answer = z.object({
  key: z.string().min(1).max(256),
  score: z.number().finite().nullish(),
  value: z.union([z.string().max(100_000), z.number(), z.boolean()]).nullish(),
  comment: z.string().max(100_000).nullish(),
});

/** Which of a pairwise item's two runs is better on a rubric key: A, B, or equal. */
const preference = z.object({
  key: z.string().min(1).max(256),
  choice: z.enum(["A", "B", "equal"]),
  comment: z.string().max(100_000).nullish(),
});

/**
 * A reviewer's answers to a queue's rubric for one run (or, in a pairwise queue, a preference per
 * rubric key), then done (or skipped, with no answers).
 */
export const reviewSubmit = z.object({
  queueId: uuid,
  itemId: uuid,
  answers: z.array(answer).max(50).default([]),
  preferences: z.array(preference).max(50).optional(),
  comment: z.string().max(100_000).nullish(),
  skip: z.boolean().optional(),
});
export type ReviewSubmit = z.infer<typeof reviewSubmit>;

export interface Reviewer {
  id: string;
  name: string;
}

function checkRubric(rubric: RubricItem[], answers: ReviewSubmit["answers"]): void {
  const given = new Map(answers.map((a) => [a.key, a]));
  for (const item of rubric) {
    const a = given.get(item.feedback_key);
    const empty = !a || ((a.score === null || a.score === undefined) && (a.value === null || a.value === undefined || a.value === ""));
    if (item.is_required && empty) throw badRequest(`"${item.feedback_key}" is required by this queue's rubric.`);
    if (item.regex_validator && typeof a?.value === "string" && !new RegExp(item.regex_validator).test(a.value)) {
      throw badRequest(`"${a.value}" does not match the pattern of "${item.feedback_key}" (${item.regex_validator}).`);
    }
  }
}

/**
 * Saves the answers as feedback on the run, signed with the reviewer (user id and name) and the
 * queue, each checked against its key's feedback config; answering again replaces the reviewer's
 * earlier answer from this queue. Then the run is done for this reviewer.
 */
export async function submitReview(db: Sql, workspaceId: string, reviewer: Reviewer, input: ReviewSubmit) {
  const queue = await loadQueue(db, workspaceId, input.queueId);
  const item = await loadItem(db, queue.id, input.itemId);
  if (input.skip) return finishReview(db, queue, item, reviewer.id, "skipped");
  if (queue.queueType === "pairwise") {
    const rubric = queue.rubricItems as RubricItem[];
    for (const [runId, answers] of preferenceAnswers(rubric, item, input.preferences ?? [], input.comment))
      await saveAnswers(db, workspaceId, reviewer, queue.id, runId, answers, { queue_item_id: item.id, paired_run_id: item.pairedRunId });
    return finishReview(db, queue, item, reviewer.id, "completed");
  }
  const answers = input.answers.filter((a) => a.score != null || (a.value != null && a.value !== "") || a.comment);
  if (input.comment) answers.push({ key: "note", score: null, value: null, comment: input.comment });
  checkRubric(queue.rubricItems as RubricItem[], answers);
  await saveAnswers(db, workspaceId, reviewer, queue.id, item.runId, answers);
  return finishReview(db, queue, item, reviewer.id, "completed");
}

/**
 * The answers as feedback on one run, each checked against its key's feedback config and signed
 * with the reviewer and the queue; answering again replaces the reviewer's earlier answer from
 * this queue.
 */
async function saveAnswers(
  db: Sql,
  workspaceId: string,
  reviewer: Reviewer,
  queueId: string,
  runId: string,
  answers: ReviewSubmit["answers"],
  extra: Record<string, string | null> = {},
) {
  for (const a of answers) await checkAgainstConfig(db, workspaceId, { key: a.key, score: a.score ?? null, value: a.value ?? undefined });
  const earlier = await db.prisma.feedback.findMany({
    where: {
      workspaceId,
      runId,
      key: { in: answers.map((a) => a.key) },
      feedbackSource: { path: ["metadata", "annotation_queue_id"], equals: queueId },
    },
  });
  const mine = new Map(
    earlier
      .filter((f) => (f.feedbackSource as { metadata?: { user_id?: string } }).metadata?.user_id === reviewer.id)
      .map((f) => [f.key, f.id]),
  );
  for (const a of answers) {
    const fields = { score: a.score ?? null, value: a.value ?? null, comment: a.comment ?? null };
    const prior = mine.get(a.key);
    if (prior) await updateFeedback(db, workspaceId, prior, fields);
    else
      await createFeedback(db, workspaceId, {
        run_id: runId,
        key: a.key,
        ...fields,
        feedback_source: {
          type: "app",
          metadata: { user_id: reviewer.id, user_name: reviewer.name, annotation_queue_id: queueId, ...extra },
        },
      });
  }
}

/** The review page's submit: the signed-in user reviewing under their display name; says whether the run is now done. */
export async function submitAsUser(db: Sql, workspaceId: string, userId: string, role: Role, input: ReviewSubmit) {
  await loadQueue(db, workspaceId, input.queueId);
  await assertReviews(db, input.queueId, { role, userId });
  const name = (await reviewerNames(db, workspaceId, [userId])).get(userId)!;
  const item = await submitReview(db, workspaceId, { id: userId, name }, input);
  return { done: item.archived };
}

/** `d` in the review view: the run becomes an example of the queue's dataset (or the one given), with a corrected output if given. */
export const toDataset = z.object({
  queueId: uuid,
  itemId: uuid,
  datasetId: uuid.nullish(),
  outputs: z.record(z.string(), z.unknown()).nullish(),
});

export async function addQueueRunToDataset(db: Sql, workspaceId: string, input: z.infer<typeof toDataset>) {
  const queue = await loadQueue(db, workspaceId, input.queueId);
  const item = await loadItem(db, queue.id, input.itemId);
  const datasetId = input.datasetId ?? queue.defaultDatasetId;
  if (!datasetId) throw badRequest("This queue has no default dataset: choose one.");
  const run = (await readRun(db, workspaceId, item.runId))!;
  const result = await createExamples(db, workspaceId, datasetId, [
    {
      inputs: (run.inputs as Record<string, unknown> | null) ?? {},
      outputs: input.outputs ?? (run.outputs as Record<string, unknown> | null),
      source_run_id: run.id,
    },
  ]);
  return { example_id: result.example_ids[0], dataset_id: datasetId };
}
