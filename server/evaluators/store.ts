import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { Evaluator as EvaluatorRow, Prisma } from "../db/generated/client";
import { badRequest, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { isUuid } from "../core/uuid";
import { isObj } from "../llm/formats/common";
import { templateMessagesOf } from "../generate/manifest";
import { resolveConnection } from "../models/connections";
import { pullCommit } from "../prompts/commits";
import { outputSchema, type CodeEvaluatorInput, type CodeLanguage, type LlmEvaluatorInput, type OutputSchema } from "./schema";
import { feedbackKeysOf } from "./verdict";

/**
 * An evaluator as stored, its JSON columns typed as validated on the way in. A code evaluator's
 * prompt is [] and its output schema {} (its feedback keys are whatever its function answers).
 */
export type Evaluator = Omit<EvaluatorRow, "prompt" | "outputSchema" | "variableMapping" | "type" | "language"> & {
  type: "llm" | "code";
  language: CodeLanguage | null;
  prompt: [string, string][];
  outputSchema: OutputSchema;
  variableMapping: Record<string, string>;
};
export const asEvaluator = (row: EvaluatorRow) => row as unknown as Evaluator;

export const missingEvaluator = (id: string) => notFound(`Evaluator ${id} not found.`);

export async function loadEvaluator(db: Sql, workspaceId: string, id: string): Promise<Evaluator> {
  const row = isUuid(id) ? await db.prisma.evaluator.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw missingEvaluator(id);
  return asEvaluator(row);
}

/** `owner/repo` or `repo` (the workspace's own), as the prompt repository reads it. */
function splitHandle(handle: string): [string, string] {
  const slash = handle.indexOf("/");
  return slash < 0 ? ["-", handle] : [handle.slice(0, slash), handle.slice(slash + 1)];
}

/** A prompt commit's messages and structured-output schema (a StructuredPrompt's `schema_`). */
async function promptFromRepo(db: Sql, workspaceId: string, handle: string, ref: string) {
  const [owner, repo] = splitHandle(handle);
  const commit = await pullCommit(db, { workspaceId, liker: "evaluator" }, owner, repo, ref, true);
  const messages = templateMessagesOf(commit.manifest).map((m): [string, string] => [m.role, m.content]);
  if (messages.length === 0) throw badRequest(`The prompt ${handle}:${ref} has no chat messages an evaluator can send.`);
  const kwargs = isObj(commit.manifest) && isObj(commit.manifest.kwargs) ? commit.manifest.kwargs : {};
  return { messages, schema: kwargs.schema_ ?? null, hash: commit.commit_hash };
}

/**
 * The stored definition from what was sent: the prompt inline, or taken from the prompt repository
 * (its messages and structured-output schema, at the commit or tag named, "latest" by default);
 * an inline schema wins over the commit's. The connection, when named, must exist.
 */
export async function definitionOf(db: Sql, workspaceId: string, input: LlmEvaluatorInput) {
  let prompt = input.prompt ?? null;
  let schema: unknown = input.schema ?? null;
  if (input.prompt_repo_handle) {
    const fromRepo = await promptFromRepo(db, workspaceId, input.prompt_repo_handle, input.commit_hash_or_tag ?? "latest");
    prompt ??= fromRepo.messages as [never, string][];
    schema ??= fromRepo.schema;
  }
  if (!prompt) throw badRequest("llm_evaluator needs a prompt: `prompt` ([[role, template], …]) or `prompt_repo_handle`.");
  if (!schema) throw badRequest("llm_evaluator needs an output schema: `schema`, or a structured prompt that has one.");
  const parsed = outputSchema.safeParse(schema);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`llm_evaluator.schema${issue.path.length ? `.${issue.path.join(".")}` : ""} ${issue.message}.`);
  }
  if (input.connection_id) await resolveConnection(db, workspaceId, input.connection_id);
  return {
    prompt: prompt as Prisma.InputJsonValue,
    outputSchema: parsed.data as Prisma.InputJsonValue,
    templateFormat: input.template_format ?? "f-string",
    variableMapping: (input.variable_mapping ?? {}) as Prisma.InputJsonValue,
    model: input.model ?? null,
    connectionId: input.connection_id ?? null,
    promptRepoHandle: input.prompt_repo_handle ?? null,
    commitHashOrTag: input.prompt_repo_handle ? (input.commit_hash_or_tag ?? "latest") : null,
  };
}

export async function insertEvaluator(
  db: Sql,
  workspaceId: string,
  name: string,
  input: LlmEvaluatorInput,
  metadata: Record<string, unknown> = {},
): Promise<Evaluator> {
  const definition = await definitionOf(db, workspaceId, input);
  const row = await db.prisma.evaluator.create({
    data: { id: randomUUID(), workspaceId, name, metadata: metadata as Prisma.InputJsonValue, ...definition },
  });
  return asEvaluator(row);
}

/** A code evaluator: its source and language; the sandbox compiles it when it first runs. */
export async function insertCodeEvaluator(
  db: Sql,
  workspaceId: string,
  name: string,
  input: CodeEvaluatorInput,
  metadata: Record<string, unknown> = {},
): Promise<Evaluator> {
  const row = await db.prisma.evaluator.create({
    data: {
      id: randomUUID(),
      workspaceId,
      name,
      type: "code",
      code: input.code,
      language: input.language,
      prompt: [],
      outputSchema: {},
      metadata: metadata as Prisma.InputJsonValue,
    },
  });
  return asEvaluator(row);
}

/** The evaluator as LangSmith's platform API answers it (`OnlineEvaluator`), with our inline definition beside. */
export const wireEvaluator = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  type: z.enum(["llm", "code"]),
  is_managed: z.boolean(),
  feedback_keys: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  code_evaluator: z
    .object({
      evaluator_id: z.string(),
      code: z.string(),
      language: z.string(),
      // Nothing is built ahead: the source is compiled when it first runs.
      evaluator_build_status: z.literal("READY"),
    })
    .optional(),
  llm_evaluator: z
    .object({
      evaluator_id: z.string(),
      prompt_repo_handle: z.string().optional(),
      commit_hash_or_tag: z.string().optional(),
      variable_mapping: z.record(z.string(), z.string()),
      prompt: z.array(z.tuple([z.string(), z.string()])),
      schema: outputSchema,
      template_format: z.string(),
      model: z.string().nullable(),
      connection_id: z.string().nullable(),
    })
    .optional(),
  run_rules: z.array(z.object({ id: z.string(), session_id: z.string().optional(), dataset_id: z.string().optional() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WireEvaluator = z.infer<typeof wireEvaluator>;

export function evaluatorToWire(
  e: Evaluator,
  rules: { id: string; session_id: string | null; dataset_id: string | null }[] = [],
): WireEvaluator {
  return {
    id: e.id,
    tenant_id: e.workspaceId,
    name: e.name,
    type: e.type,
    is_managed: false,
    feedback_keys: e.type === "code" ? [] : feedbackKeysOf(e.outputSchema),
    metadata: e.metadata as Record<string, unknown>,
    ...(e.type === "code"
      ? {
          code_evaluator: {
            evaluator_id: e.id,
            code: e.code ?? "",
            language: e.language ?? "python",
            evaluator_build_status: "READY" as const,
          },
        }
      : { llm_evaluator: llmToWire(e) }),
    run_rules: rules.map((r) => ({ id: r.id, session_id: r.session_id ?? undefined, dataset_id: r.dataset_id ?? undefined })),
    created_at: isoFromDb(e.createdAt)!,
    updated_at: isoFromDb(e.updatedAt)!,
  };
}

function llmToWire(e: Evaluator) {
  return {
    evaluator_id: e.id,
    prompt_repo_handle: e.promptRepoHandle ?? undefined,
    commit_hash_or_tag: e.commitHashOrTag ?? undefined,
    variable_mapping: e.variableMapping,
    prompt: e.prompt,
    schema: e.outputSchema,
    template_format: e.templateFormat,
    model: e.model,
    connection_id: e.connectionId,
  };
}
