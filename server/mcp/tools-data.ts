import { z } from "zod";
import { uuid } from "../core/uuid";
import { AppError, badRequest, notFound } from "../core/errors";
import { listExamples } from "../datasets/examples";
import { listDatasets, readDataset } from "../datasets/service";
import { queryExperimentRuns } from "../experiments/experiment-runs";
import { feedbackCreate } from "../feedback/schema";
import { createFeedback } from "../feedback/service";
import { chatPromptManifest, templateMessagesOf } from "../generate/manifest";
import { callerOf } from "../prompts/access";
import { createCommit, pullCommit } from "../prompts/commits";
import { createRepo } from "../prompts/repos";
import { existingRuns } from "../runs/lookup";
import { repoHandle, type NewCommit } from "../prompts/schema";
import type { SessionFilter } from "../sessions/schema";
import { listSessions } from "../sessions/service";
import { Budget, FIELD_CHARS, jsonResult } from "./clip";
import { requireWrite } from "./context";
import { tool, type ToolSet } from "./tool";

const datasetId = z.string().describe("The dataset's id (see list_datasets).");
const promptName = z
  .string()
  .min(1)
  .max(300)
  .describe('The prompt: "name" for this workspace\'s own, or "owner/name" for a public prompt of another workspace.');

/** "owner/name" or "name" (this workspace's, owner "-"). */
const repoPath = (name: string) => {
  const [owner, repo] = name.includes("/") ? name.split("/", 2) : ["-", name];
  return { owner, repo };
};

export const dataTools: ToolSet = {
  list_datasets: tool({
    description: "List the workspace's datasets: id, name, description, example count, and how many experiments ran on each.",
    input: {
      name_contains: z.string().max(200).optional().describe("Only datasets whose name contains this text."),
      limit: z.number().int().min(1).max(100).optional().describe("How many (default 20)."),
    },
    run: async (ctx, { name_contains, limit }) =>
      jsonResult({
        datasets: await listDatasets(ctx.sql, ctx.workspaceId, { nameContains: name_contains, limit: limit ?? 20 }),
      }),
  }),
  read_dataset: tool({
    description: "Read a dataset and a page of its examples (inputs, reference outputs, metadata, split), cut to `max_chars_per_field`.",
    input: {
      dataset_id: datasetId,
      limit: z.number().int().min(1).max(100).optional().describe("How many examples (default 20)."),
      offset: z.number().int().min(0).optional().describe("Examples to skip, for the next page."),
      max_chars_per_field: z
        .number()
        .int()
        .min(50)
        .max(20_000)
        .optional()
        .describe(`Characters of each example's inputs and outputs (default ${FIELD_CHARS}).`),
    },
    run: async (ctx, { dataset_id, limit, offset, max_chars_per_field }) => {
      const dataset = await readDataset(ctx.sql, ctx.workspaceId, dataset_id);
      const examples = await listExamples(ctx.sql, ctx.workspaceId, { datasetId: dataset.id, limit: limit ?? 20, offset: offset ?? 0 });
      const budget = new Budget();
      const max = max_chars_per_field ?? FIELD_CHARS;
      return jsonResult({
        dataset,
        examples: examples.map((e) => ({ ...e, inputs: budget.take(e.inputs, max), outputs: budget.take(e.outputs, max) })),
      });
    },
  }),
  list_experiments: tool({
    description:
      "List the experiments run on a dataset, newest first, with their statistics and aggregate feedback scores (`feedback_stats`: per key, the count and average).",
    input: { dataset_id: datasetId, limit: z.number().int().min(1).max(100).optional().describe("How many (default 20).") },
    run: async (ctx, { dataset_id, limit }) => {
      await readDataset(ctx.sql, ctx.workspaceId, dataset_id);
      const query: SessionFilter = { referenceDatasetIds: [dataset_id], includeStats: true, limit: limit ?? 20 };
      return jsonResult({ experiments: await listSessions(ctx.sql, ctx.workspaceId, query) });
    },
  }),
  read_experiment: tool({
    description:
      "Read an experiment's results: the dataset's examples it ran, each with its run's inputs, outputs, error, latency and feedback scores. Pages of `page_size`; follow `next_cursor`.",
    input: {
      dataset_id: datasetId,
      experiment_id: uuid.describe("The experiment's id (see list_experiments)."),
      page_size: z.number().int().min(1).max(100).optional().describe("Examples per page (default 20)."),
      cursor: z.string().max(100).optional().describe("`next_cursor` of the previous page."),
      max_chars_per_field: z
        .number()
        .int()
        .min(50)
        .max(20_000)
        .optional()
        .describe(`Characters of each input and output (default ${FIELD_CHARS}).`),
    },
    run: async (ctx, { dataset_id, experiment_id, page_size, cursor, max_chars_per_field }) => {
      const page = await queryExperimentRuns(ctx.sql, ctx.workspaceId, dataset_id, {
        experimentIds: [experiment_id],
        selects: ["NAME", "STATUS", "INPUTS", "OUTPUTS", "ERROR", "LATENCY_SECONDS", "TOTAL_TOKENS", "TOTAL_COST", "FEEDBACK_STATS"],
        pageSize: page_size ?? 20,
        cursor,
      });
      const budget = new Budget();
      const max = max_chars_per_field ?? FIELD_CHARS;
      return jsonResult({
        next_cursor: page.next_cursor,
        examples: page.items.map((e) => ({
          id: e.id,
          inputs: budget.take(e.inputs, max),
          reference_outputs: budget.take(e.outputs, max),
          runs: e.runs.map((r) => ({ ...r, inputs: budget.take(r.inputs, max), outputs: budget.take(r.outputs, max) })),
        })),
      });
    },
  }),
  pull_prompt: tool({
    description:
      "Pull a prompt from the prompt hub: its manifest (LangChain's serialized form), its messages as role and template text, and the commit hash. `commit` may be a hash (prefix), a tag, or left out for the latest.",
    input: {
      name: promptName,
      commit: z.string().max(200).optional().describe('A commit hash (prefix) or a tag; "latest" when left out.'),
    },
    run: async (ctx, { name, commit }) => {
      const { owner, repo } = repoPath(name);
      const pulled = await pullCommit(ctx.sql, callerOf(ctx), owner, repo, commit ?? "latest", true);
      return jsonResult({ ...pulled, messages: templateMessagesOf(pulled.manifest) });
    },
  }),
  push_prompt: tool({
    description:
      "Push a new version of a prompt to this workspace's prompt hub (the prompt is made if it does not exist). Give `messages` (role: system, user or assistant; content with {variables}) or a whole LangChain `manifest`. Needs a member or admin key.",
    input: {
      name: repoHandle.max(100).describe("The prompt's name in this workspace (letters, digits, -, _ and .)."),
      messages: z
        .array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string().max(1_000_000) }))
        .min(1)
        .max(100)
        .optional()
        .describe("The chat prompt's messages; {name} marks a variable."),
      manifest: z.record(z.string(), z.unknown()).optional().describe("A LangChain-serialized prompt, as pull_prompt returns it."),
      description: z.string().max(10_000).optional().describe("What changed in this version."),
    },
    annotations: { readOnlyHint: false, destructiveHint: false },
    run: async (ctx, { name, messages, manifest, description }) => {
      requireWrite(ctx);
      if (!messages === !manifest) throw badRequest("Give either `messages` or `manifest`.");
      const commit: NewCommit = { manifest: manifest ?? chatPromptManifest(messages!).manifest, description };
      const push = () => createCommit(ctx.sql, callerOf(ctx), "-", name, commit);
      try {
        return jsonResult(await push());
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 404) throw error;
        await createRepo(ctx.sql, callerOf(ctx), { handle: name });
        return jsonResult(await push());
      }
    },
  }),
  add_feedback: tool({
    description:
      "Record feedback on a run of this workspace: a `key` (e.g. correctness, helpfulness) with a numeric `score`, a categorical `value`, and/or a `comment`. Needs a member or admin key.",
    input: {
      run_id: uuid.describe("The run the feedback is about."),
      key: z.string().min(1).max(200).describe("The feedback's name, e.g. correctness."),
      score: z.number().optional().describe("A number, e.g. 0 to 1."),
      value: z.union([z.string(), z.number(), z.boolean()]).optional().describe("A categorical value, e.g. a label."),
      comment: z.string().max(100_000).optional().describe("Why, in words."),
    },
    annotations: { readOnlyHint: false, destructiveHint: false },
    run: async (ctx, input) => {
      requireWrite(ctx);
      // The REST API keeps feedback that arrives before its run; an agent names a run it has seen.
      if (!(await existingRuns(ctx.sql, ctx.workspaceId, [input.run_id])).has(input.run_id))
        throw notFound(`Run ${input.run_id} not found in this workspace.`);
      const feedback = await createFeedback(ctx.sql, ctx.workspaceId, feedbackCreate.parse({ ...input, feedback_source: { type: "api" } }));
      return jsonResult({ feedback });
    },
  }),
};
