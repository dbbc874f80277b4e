import { z } from "zod";
import { uuid } from "../core/uuid";

const description = z.string().trim().min(1, "must not be empty").max(8000, "must be at most 8000 characters");
const variable = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an identifier (letters, digits, underscore)");

/** POST /generate: what to draft, from a description. */
export const generateBody = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({
      kind: z.literal("prompt"),
      description,
      /** Variables the template must use, e.g. ["question", "context"]. */
      input_variables: z.array(variable).max(20).optional(),
    }),
    z.strictObject({
      kind: z.literal("evaluator"),
      description,
    }),
    z.strictObject({
      kind: z.literal("examples"),
      description,
      count: z.number().int().min(1).max(50).default(5),
      /** Generated examples follow this dataset's description, schemas and a few current examples. */
      dataset_id: uuid.optional(),
    }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? 'kind must be "prompt", "evaluator" or "examples"' : undefined) },
);
export type GenerateBody = z.infer<typeof generateBody>;

const httpUrl = z
  .string()
  .max(500)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), "must be an http(s) URL");

/**
 * PUT /generate/config: a workspace's own OpenAI-compatible endpoint. Omitted fields are kept; null
 * clears. The API key is stored encrypted and never returned.
 */
export const generationConfigUpdate = z.strictObject({
  base_url: httpUrl.nullable().optional(),
  model: z.string().trim().min(1).max(200).nullable().optional(),
  api_key: z.string().min(1).max(2000).nullable().optional(),
});
export type GenerationConfigUpdate = z.infer<typeof generationConfigUpdate>;

// ---- what the model must answer (validated; anything else is a 502) --------------------------

const templateMessage = z.object({
  role: z.enum(["system", "user", "human", "assistant", "ai"]),
  content: z.string().min(1).max(20_000),
});

export const promptOutput = z.object({
  messages: z.array(templateMessage).min(1).max(20),
});

const schemaProperty = z.looseObject({
  type: z.enum(["string", "number", "integer", "boolean", "array", "object"]),
  description: z.string().optional(),
});

export const evaluatorOutput = z.object({
  messages: z.array(templateMessage).min(1).max(20),
  output_schema: z.looseObject({
    type: z.literal("object"),
    properties: z.record(z.string().min(1), schemaProperty).refine((p) => Object.keys(p).length > 0, "must name at least one property"),
    required: z.array(z.string()).optional(),
  }),
});

const jsonObject = z.record(z.string(), z.unknown());

export const examplesOutput = z.object({
  examples: z
    .array(z.object({ inputs: jsonObject, outputs: jsonObject.nullable().optional() }))
    .min(1)
    .max(100),
});
