import { z } from "zod";
import type { Sql } from "../../db/client";
import { createFeedbackConfig, feedbackConfigCreate } from "../../feedback/configs";
import { uuid } from "../../core/uuid";
import { createQueue, updateQueue } from "./queues";
import { queueCreate, queueUpdate } from "./schema";

/** The queue editor of the UI: the queue's fields, and feedback configs for rubric keys that have none yet. */
export const queueEditor = z.object({
  queueId: uuid.optional(),
  queue: queueCreate.merge(queueUpdate.omit({ name: true })),
  configs: z.array(feedbackConfigCreate).max(50).default([]),
});

/** Creates the new keys' configs (an identical existing one is kept), then creates or updates the queue. */
export async function saveQueue(db: Sql, workspaceId: string, input: z.infer<typeof queueEditor>) {
  for (const config of input.configs) await createFeedbackConfig(db, workspaceId, config);
  return input.queueId ? updateQueue(db, workspaceId, input.queueId, input.queue) : createQueue(db, workspaceId, input.queue);
}
