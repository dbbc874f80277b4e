import { z } from "zod";

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID");
const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const time = z.union([z.string(), z.number()]).nullish();

/** A run as the SDKs send it in a post or a patch. Unknown keys are ignored. */
export const wireRun = z.looseObject({
  id: optional(uuid),
  name: optional(z.string()),
  run_type: optional(z.string()),
  inputs: optional(z.unknown()),
  outputs: optional(z.unknown()),
  extra: optional(z.record(z.string(), z.unknown())),
  events: optional(z.array(z.unknown())),
  error: optional(z.unknown()),
  serialized: optional(z.unknown()),
  tags: optional(z.array(z.string())),
  reference_example_id: optional(uuid),
  parent_run_id: optional(uuid),
  trace_id: optional(uuid),
  dotted_order: optional(z.string()),
  session_name: optional(z.string()),
  session_id: optional(uuid),
  start_time: time,
  end_time: time,
});
export type WireRun = z.infer<typeof wireRun>;

export const batchBody = z.object({
  post: z.array(wireRun).nullish(),
  patch: z.array(wireRun).nullish(),
});
