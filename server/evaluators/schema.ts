import { z } from "zod";
import { instant } from "../core/instant";

/** One feedback key of a verdict: a number (continuous), a boolean, or one of several strings (categorical). */
const keySchema = z.union([
  z.looseObject({ type: z.enum(["number", "integer"]), minimum: z.number().optional(), maximum: z.number().optional() }),
  z.looseObject({ type: z.literal("boolean") }),
  z.looseObject({ type: z.literal("string"), enum: z.array(z.string().min(1)).min(1).max(255) }),
]);

/** The words a model's explanation goes under; such a property becomes the feedback's comment. */
export const COMMENT_KEYS = ["comment", "reasoning", "explanation"] as const;

/**
 * An evaluator's output: a JSON schema of an object whose properties are feedback keys, plus an
 * optional `comment`/`reasoning` string. The model is asked for exactly this object.
 */
export const outputSchema = z
  .looseObject({
    type: z.literal("object").default("object"),
    title: z.string().max(64).optional(),
    description: z.string().max(10_000).optional(),
    properties: z.record(z.string().min(1).max(256), z.looseObject({ type: z.string() })),
    required: z.array(z.string()).optional(),
  })
  .superRefine((schema, ctx) => {
    const keys = Object.keys(schema.properties).filter((k) => !(COMMENT_KEYS as readonly string[]).includes(k));
    if (keys.length === 0) ctx.addIssue({ code: "custom", message: "needs at least one feedback key among its properties" });
    for (const key of keys) {
      const parsed = keySchema.safeParse(schema.properties[key]);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          path: ["properties", key],
          message: "must be a number, integer, boolean, or string with an enum of categories",
        });
      }
    }
  });
export type OutputSchema = z.infer<typeof outputSchema>;

/** [[role, template], ...], LangSmith's structured evaluator prompt; roles system/user/assistant (human/ai too). */
export const promptMessages = z
  .array(z.tuple([z.enum(["system", "user", "human", "assistant", "ai"]), z.string().max(100_000)]))
  .min(1)
  .max(50);

const variableMapping = z.record(z.string().min(1).max(200), z.string().min(1).max(500));

/**
 * The LLM evaluator's definition. LangSmith's names (`prompt_repo_handle`, `commit_hash_or_tag`,
 * `variable_mapping`); the prompt can be given inline (`prompt`, `schema`, `model`) instead of a
 * prompt repo commit, and `connection_id` names one of the workspace's model connections.
 */
export const llmEvaluator = z.object({
  prompt_repo_handle: z.string().min(1).max(300).nullish(),
  commit_hash_or_tag: z.string().min(1).max(100).nullish(),
  prompt: promptMessages.nullish(),
  schema: outputSchema.nullish(),
  template_format: z.enum(["f-string", "mustache"]).nullish(),
  variable_mapping: variableMapping.nullish(),
  model: z.string().min(1).max(200).nullish(),
  connection_id: z.string().min(1).max(64).nullish(),
});
export type LlmEvaluatorInput = z.infer<typeof llmEvaluator>;

export const CODE_LANGUAGES = ["python", "javascript", "typescript"] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/**
 * The code evaluator's definition (the client's `CreateOnlineCodeEvaluatorRequest`): its source,
 * which defines `perform_eval(run, example)` (`performEval` in JavaScript/TypeScript), and its
 * language, Python unless said. The client's other fields (dependencies, secrets, thread input)
 * are not honoured and are dropped.
 */
const codeLanguage = z
  .string()
  .transform((l) => l.toLowerCase())
  .pipe(z.enum(CODE_LANGUAGES, { message: `must be one of ${CODE_LANGUAGES.join(", ")}` }));
const code = z.string().min(1).max(200_000);
export const codeEvaluator = z.object({ code, language: codeLanguage.default("python") });
export type CodeEvaluatorInput = z.infer<typeof codeEvaluator>;

/** POST /api/v1/platform/evaluators: `type` "llm" with `llm_evaluator`, or "code" with `code_evaluator`. */
export const evaluatorCreate = z
  .object({
    name: z.string().min(1).max(200),
    type: z.enum(["llm", "code"]).optional(),
    llm_evaluator: llmEvaluator.nullish(),
    code_evaluator: codeEvaluator.nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
  })
  .transform((body, ctx) => {
    const type = body.type ?? (body.code_evaluator && !body.llm_evaluator ? "code" : "llm");
    const definition = type === "code" ? body.code_evaluator : body.llm_evaluator;
    if (!definition) {
      ctx.addIssue({ code: "custom", path: [`${type}_evaluator`], message: `is required for a ${type} evaluator` });
      return z.NEVER;
    }
    if (body[type === "code" ? "llm_evaluator" : "code_evaluator"]) {
      ctx.addIssue({ code: "custom", path: ["type"], message: "is " + type + ": send only its own definition" });
      return z.NEVER;
    }
    return { ...body, type };
  });
export type EvaluatorCreate = z.infer<typeof evaluatorCreate>;

/** PATCH /api/v1/platform/evaluators/{id}: what is sent changes. */
export const evaluatorUpdate = z.object({
  name: z.string().min(1).max(200).optional(),
  llm_evaluator: llmEvaluator.partial().optional(),
  code_evaluator: z.object({ code: code.optional(), language: codeLanguage.optional() }).optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type EvaluatorUpdate = z.infer<typeof evaluatorUpdate>;

export const evaluatorListQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  name_contains: z.string().max(200).optional(),
  feedback_key: z.string().max(256).optional(),
  type: z.string().max(40).optional(),
});

/** A rule's inline evaluator (`evaluators: [{structured: …}]` on POST /runs/rules). */
export const structuredEvaluator = z.object({
  structured: z.object({
    prompt: promptMessages,
    schema: outputSchema,
    model: z.record(z.string(), z.unknown()).nullish(),
    template_format: z.enum(["f-string", "mustache"]).nullish(),
    variable_mapping: variableMapping.nullish(),
    hub_ref: z.string().nullish(),
  }),
});

/** POST /runs/rules/{id}/backfill: the past time range to evaluate (end: now). */
export const backfillCreate = z.object({
  start_time: instant,
  end_time: instant.nullish(),
});
