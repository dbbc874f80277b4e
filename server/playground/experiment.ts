import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { uuid } from "../core/uuid";
import { listExamples } from "../datasets/examples";
import { findDataset } from "../datasets/service";
import { insertFeedback } from "../feedback/store";
import { ingestRuns } from "../ingest/service";
import { streamChat, UpstreamError } from "../models/chat";
import { waitForCall } from "../models/admission";
import { resolveConnection } from "../models/connections";
import { assertPlaygroundSpend } from "../spend/limits";
import { chatRequest, type ChatResult } from "../models/types";
import { createSession } from "../sessions/service";
import { fillMessages, llmRun } from "./trace";

const MAX_EXAMPLES = 1000;
const CONCURRENCY = 4;

/** "Run over dataset": the variant's messages with each example's inputs filled into its `{variables}`. */
export const datasetRun = z.object({
  connection_id: z.string().max(64).nullish(),
  request: chatRequest,
  dataset_id: uuid,
  experiment_name: z.string().trim().min(1).max(200).nullish(),
  /** Built-in evaluators: `exact_match` scores 1 when the answer equals the example's reference output. */
  evaluators: z
    .array(z.enum(["exact_match"]))
    .max(5)
    .default([]),
});
export type DatasetRun = z.infer<typeof datasetRun>;

/** The reference answer of an example: its one output value (a string), else its outputs as JSON. */
function referenceText(outputs: Record<string, unknown> | null | undefined): string | null {
  if (!outputs) return null;
  const values = Object.values(outputs);
  return values.length === 1 && typeof values[0] === "string" ? values[0] : JSON.stringify(outputs);
}

/**
 * Runs a playground variant over a dataset as an experiment: a project on the dataset (it shows in
 * the dataset's Experiments tab and the comparison views), one trace per example — a root run with
 * the example's inputs and the answer, its LLM call beneath with tokens and cost — and the chosen
 * evaluators' feedback. Opening it checks the dataset, the connection and that there are examples
 * (4xx before anything runs); `run` runs the examples four at a time, `onProgress` hearing each one
 * finish. A failed call is recorded as an error on its example and the others go on.
 */
export async function openDatasetRun(db: Sql, workspaceId: string, input: DatasetRun) {
  const dataset = await findDataset(db, workspaceId, input.dataset_id);
  const connection = await resolveConnection(db, workspaceId, input.connection_id);
  await assertPlaygroundSpend(db, workspaceId);
  const examples = await listExamples(db, workspaceId, { datasetId: dataset.id, limit: MAX_EXAMPLES });
  if (examples.length === 0) throw badRequest(`Dataset "${dataset.name}" has no examples to run over.`);
  const model = input.request.model || connection.defaultModel;
  const run = async (onProgress: (done: number, total: number) => void = () => {}) => {
    const project = await createSession(db, workspaceId, {
      name: input.experiment_name ?? `playground-${model}-${randomUUID().slice(0, 6)}`,
      reference_dataset_id: dataset.id,
      extra: { metadata: { model, source: "playground", connection: connection.name } },
    });
    let done = 0;
    let failed = 0;
    const one = async (example: (typeof examples)[number]) => {
      const inputs = (example.inputs ?? {}) as Record<string, unknown>;
      const request = { ...input.request, model, messages: fillMessages(input.request.messages, inputs) };
      const rootId = randomUUID();
      const llmId = randomUUID();
      const startedAt = new Date();
      let result: ChatResult | null = null;
      let error: string | null = null;
      try {
        await waitForCall(connection);
        result = await streamChat(connection, request);
      } catch (e) {
        if (!(e instanceof UpstreamError)) throw e;
        error = e.message;
        failed++;
      }
      const end = (result?.endedAt ?? new Date()).toISOString();
      await ingestRuns(db, workspaceId, {
        post: [
          {
            id: rootId,
            trace_id: rootId,
            name: "playground",
            run_type: "chain",
            session_name: project.name,
            start_time: startedAt.toISOString(),
            end_time: end,
            inputs,
            outputs: result ? { output: result.text } : null,
            error,
            reference_example_id: example.id,
          },
          llmRun({
            id: llmId,
            traceId: rootId,
            parentRunId: rootId,
            projectName: project.name,
            connection,
            request,
            result,
            error,
            startedAt,
          }),
        ],
      });
      if (result && input.evaluators.includes("exact_match")) {
        const reference = referenceText(example.outputs as Record<string, unknown> | null);
        await insertFeedback(db, workspaceId, [
          {
            run_id: rootId,
            trace_id: rootId,
            key: "exact_match",
            score: reference !== null && result.text.trim() === reference.trim() ? 1 : 0,
            feedback_source: { type: "auto_eval", metadata: { evaluator: "exact_match" } },
          },
        ]);
      }
      onProgress(++done, examples.length);
    };
    const queue = [...examples];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let example = queue.shift(); example; example = queue.shift()) await one(example);
      }),
    );
    return { experiment_id: project.id, experiment_name: project.name, dataset_id: dataset.id, runs: examples.length, failed };
  };
  return { run };
}
