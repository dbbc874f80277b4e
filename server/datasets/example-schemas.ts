import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import { badRequest } from "../core/errors";

type Json = Record<string, unknown>;

/** A schema larger than this is refused: compiling one costs time and memory on the shared server. */
const MAX_SCHEMA_BYTES = 64 * 1024;
const CACHE_SIZE = 200;

// strict off: schemas come from pydantic, zod and hand-written JSON, with keywords Ajv does not know.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();

/**
 * A dataset's schema as a validator, compiled once per distinct schema. `$schema` is dropped: the
 * SDKs send draft-07 and 2020-12 documents alike, and both validate examples the same way here.
 */
function validatorOf(schema: Json, field: string): ValidateFunction {
  const text = JSON.stringify(schema);
  const hit = compiled.get(text);
  if (hit) return hit;
  if (text.length > MAX_SCHEMA_BYTES) throw badRequest(`${field} is over ${MAX_SCHEMA_BYTES / 1024} KiB.`);
  const { $schema: _draft, ...body } = schema;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(body);
  } catch (error) {
    throw badRequest(`${field} is not a valid JSON Schema: ${(error as Error).message}`);
  }
  if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  compiled.set(text, validate);
  return validate;
}

function describe(where: string, error: ErrorObject): string {
  const path =
    where +
    error.instancePath
      .split("/")
      .slice(1)
      .map((p) => `.${p.replaceAll("~1", "/").replaceAll("~0", "~")}`)
      .join("");
  if (error.keyword === "required") return `${path}.${(error.params as { missingProperty: string }).missingProperty} is required`;
  if (error.keyword === "additionalProperties")
    return `${path}.${(error.params as { additionalProperty: string }).additionalProperty} is not allowed`;
  return `${path} ${error.message ?? "does not match the schema"}`;
}

/** Refuses a dataset's schema that cannot be compiled (on create and update, before it is stored). */
export function checkDatasetSchema(schema: Json | null | undefined, field: string): void {
  if (schema) validatorOf(schema, field);
}

/** The dataset's schemas (its Prisma row has them). */
export interface DatasetSchemas {
  inputsSchemaDefinition: unknown;
  outputsSchemaDefinition: unknown;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks an example's inputs and outputs against its dataset's schemas (a side that is null or
 * absent is not checked: no outputs, or an update leaving it as it is); a mismatch is a 400 naming
 * the example and the path, e.g. `inputs.question must be string`.
 */
export function checkExample(dataset: DatasetSchemas, exampleId: string, inputs: unknown, outputs: unknown): void {
  const sides = [
    ["inputs", dataset.inputsSchemaDefinition, inputs],
    ["outputs", dataset.outputsSchemaDefinition, outputs],
  ] as const;
  for (const [side, schema, value] of sides) {
    if (!isObject(schema) || value === null || value === undefined) continue;
    const validate = validatorOf(schema, `${side}_schema_definition`);
    if (!validate(value)) {
      throw badRequest(`Example ${exampleId} does not match the dataset's ${side} schema: ${describe(side, validate.errors![0])}.`);
    }
  }
}
