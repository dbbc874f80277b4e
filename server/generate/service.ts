import type { Sql } from "../db/client";
import { env } from "../env";
import { AppError, badRequest } from "../core/errors";
import { isoFromDb } from "../core/time";
import { resolveConnection } from "../models/connections";
import { completeJson, type ChatMessage, type GenerationConfig } from "./client";
import { chatPromptManifest } from "./manifest";
import { evaluatorOutput, examplesOutput, promptOutput, type GenerateBody, type GenerationConfigUpdate } from "./schema";
import { decryptSecret, encryptSecret } from "../core/secret";
import { z } from "zod";
import { recentExamples } from "../datasets/examples";
import { findDataset } from "../datasets/service";

export const DEFAULT_MODEL = "gpt-4o-mini";

const settings = (db: Sql, workspaceId: string) => db.prisma.generationSettings.findUnique({ where: { workspaceId } });

/**
 * The endpoint this workspace generates with. A workspace that set its own base_url uses only its
 * own key (the deployment's key is never sent to a workspace-chosen URL); else its first
 * OpenAI-compatible model connection; otherwise the deployment's GENERATION_BASE_URL / GENERATION_API_KEY. The model: the workspace's, else GENERATION_MODEL, else gpt-4o-mini.
 */
export async function generationConfig(db: Sql, workspaceId: string): Promise<GenerationConfig | null> {
  const row = await settings(db, workspaceId);
  const model = row?.model ?? env().GENERATION_MODEL ?? DEFAULT_MODEL;
  if (row?.baseUrl) {
    const apiKey = row.apiKeyEncrypted ? decryptSecret(row.apiKeyEncrypted) : null;
    if (row.apiKeyEncrypted && apiKey === null) {
      throw badRequest(
        "This workspace's generation API key can no longer be read (the server's SECRET_KEY changed): set it again with PUT /generate/config.",
      );
    }
    return { baseUrl: row.baseUrl, apiKey, model, source: "workspace" };
  }
  const connection = await db.prisma.modelConnection.findFirst({
    where: { workspaceId, provider: "openai" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  if (connection) {
    const c = await resolveConnection(db, workspaceId, connection.id);
    return { baseUrl: c.baseUrl, apiKey: c.apiKey, headers: c.headers, model: row?.model ?? c.defaultModel, source: "connection" };
  }
  const base = env().GENERATION_BASE_URL;
  if (!base) return null;
  return { baseUrl: base, apiKey: env().GENERATION_API_KEY || null, model, source: "deployment" };
}

/** GET/PUT /generate/config answer: never the key, only whether one is set. */
export const wireGenerationConfig = z.object({
  configured: z.boolean(),
  source: z.enum(["workspace", "connection", "deployment"]).nullable(),
  base_url: z.string().nullable(),
  model: z.string(),
  api_key_set: z.boolean(),
  updated_at: z.string().nullable(),
});
type WireGenerationConfig = z.infer<typeof wireGenerationConfig>;

async function configWire(db: Sql, workspaceId: string): Promise<WireGenerationConfig> {
  const row = await settings(db, workspaceId);
  const own = !!row?.baseUrl;
  const connection = !own && (await db.prisma.modelConnection.count({ where: { workspaceId, provider: "openai" } })) > 0;
  const deployment = !!env().GENERATION_BASE_URL;
  return {
    configured: own || connection || deployment,
    source: own ? "workspace" : connection ? "connection" : deployment ? "deployment" : null,
    // The deployment's URL is operator configuration: not shown to workspaces.
    base_url: row?.baseUrl ?? null,
    model: row?.model ?? env().GENERATION_MODEL ?? DEFAULT_MODEL,
    api_key_set: own ? !!row?.apiKeyEncrypted : deployment && !!env().GENERATION_API_KEY,
    updated_at: isoFromDb(row?.updatedAt ?? null),
  };
}

export const readGenerationConfig = configWire;

export async function updateGenerationConfig(db: Sql, workspaceId: string, input: GenerationConfigUpdate): Promise<WireGenerationConfig> {
  const prior = await settings(db, workspaceId);
  const baseUrl = input.base_url !== undefined ? input.base_url : (prior?.baseUrl ?? null);
  const model = input.model !== undefined ? input.model : (prior?.model ?? null);
  let apiKeyEncrypted = prior?.apiKeyEncrypted ?? null;
  if (input.api_key !== undefined) apiKeyEncrypted = input.api_key === null ? null : encryptSecret(input.api_key);
  // A new URL without a new key drops the old key: a key is only ever sent where it was set for.
  else if (input.base_url !== undefined && input.base_url !== prior?.baseUrl) apiKeyEncrypted = null;
  const data = { baseUrl, model, apiKeyEncrypted };
  await db.prisma.generationSettings.upsert({
    where: { workspaceId },
    create: { workspaceId, ...data },
    update: { ...data, updatedAt: new Date() },
  });
  return configWire(db, workspaceId);
}

// ---- drafting ---------------------------------------------------------------------------------

const PROMPT_SYSTEM = `You write prompt templates for LLM applications. Answer with one JSON object:
{"messages": [{"role": "system" | "user" | "assistant", "content": "<template text>"}]}.
Templates use Python f-string variables in single braces, e.g. {question}; write literal braces as {{ and }}.
Usually a system message with instructions and a user message carrying the variables.`;

const EVALUATOR_SYSTEM = `You write LLM-as-judge evaluators. Answer with one JSON object:
{"messages": [{"role": "system" | "user", "content": "<template text>"}],
 "output_schema": {"type": "object", "title": "<short name>", "description": "<what is judged>",
   "properties": {"<score name>": {"type": "boolean" | "number" | "integer" | "string", "description": "..."}, "comment": {"type": "string", "description": "reasoning"}},
   "required": ["<score name>", ...]}}.
Templates use f-string variables in single braces: {inputs} (the application's inputs), {outputs} (its outputs),
and {reference_outputs} (expected outputs) when a reference is needed.`;

const EXAMPLES_SYSTEM = `You write realistic, varied dataset examples for testing LLM applications. Answer with one JSON object:
{"examples": [{"inputs": {<object>}, "outputs": {<object>}}]} with exactly the number of examples asked for.
Keep field names consistent across examples.`;

function checked<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
  throw new AppError(502, `The model's answer is not a valid ${what}: ${issues}`);
}

interface DatasetContext {
  name: string;
  description: string | null;
  inputs_schema: unknown;
  outputs_schema: unknown;
  samples: { inputs: unknown; outputs: unknown }[];
}

async function datasetContext(db: Sql, workspaceId: string, datasetId: string): Promise<DatasetContext> {
  const ds = await findDataset(db, workspaceId, datasetId);
  return {
    name: ds.name,
    description: ds.description,
    inputs_schema: ds.inputsSchemaDefinition,
    outputs_schema: ds.outputsSchemaDefinition,
    samples: await recentExamples(db, workspaceId, datasetId, 3),
  };
}

/** POST /generate: drafts a prompt, an evaluator or dataset examples; nothing is stored. */
export async function generate(db: Sql, workspaceId: string, input: GenerateBody): Promise<Record<string, unknown>> {
  const dataset = input.kind === "examples" && input.dataset_id ? await datasetContext(db, workspaceId, input.dataset_id) : null;
  const config = await generationConfig(db, workspaceId);
  if (!config) {
    throw badRequest(
      "Generation is not configured: the deployment sets GENERATION_BASE_URL (and GENERATION_API_KEY, GENERATION_MODEL), or a workspace admin sets its own endpoint with PUT /generate/config.",
    );
  }
  const ask = (system: string, user: string): Promise<unknown> => {
    const messages: ChatMessage[] = [
      { role: "system", content: system },
      { role: "user", content: user },
    ];
    return completeJson(config, messages);
  };
  const base = { kind: input.kind, model: config.model };

  if (input.kind === "prompt") {
    const vars = input.input_variables?.length
      ? `\nThe template must use exactly these variables: ${input.input_variables.map((v) => `{${v}}`).join(", ")}.`
      : "";
    const out = checked(promptOutput, await ask(PROMPT_SYSTEM, `Write a prompt for: ${input.description}${vars}`), "prompt");
    const built = chatPromptManifest(out.messages);
    const absent = (input.input_variables ?? []).filter((v) => !built.input_variables.includes(v));
    if (absent.length) throw new AppError(502, `The model's prompt does not use the requested variables: ${absent.join(", ")}.`);
    return { ...base, ...built, messages: out.messages };
  }
  if (input.kind === "evaluator") {
    const out = checked(evaluatorOutput, await ask(EVALUATOR_SYSTEM, `Write an evaluator that judges: ${input.description}`), "evaluator");
    const schema = { title: "evaluation", description: input.description, ...out.output_schema };
    const built = chatPromptManifest(out.messages, schema);
    return { ...base, ...built, messages: out.messages, output_schema: schema };
  }
  const context = dataset
    ? `\nThe examples belong to the dataset ${JSON.stringify(dataset.name)}${dataset.description ? ` (${dataset.description})` : ""}.` +
      (dataset.inputs_schema ? `\nInputs follow this JSON schema: ${JSON.stringify(dataset.inputs_schema)}` : "") +
      (dataset.outputs_schema ? `\nOutputs follow this JSON schema: ${JSON.stringify(dataset.outputs_schema)}` : "") +
      (dataset.samples.length
        ? `\nExisting examples (match their shape, do not repeat them): ${JSON.stringify(dataset.samples).slice(0, 6000)}`
        : "")
    : "";
  const out = checked(
    examplesOutput,
    await ask(EXAMPLES_SYSTEM, `Write ${input.count} examples for: ${input.description}${context}`),
    "list of examples",
  );
  return {
    ...base,
    dataset_id: input.dataset_id ?? null,
    examples: out.examples.slice(0, input.count).map((e) => ({ inputs: e.inputs, outputs: e.outputs ?? null })),
  };
}
