import { z } from "zod";

/**
 * The Langfuse ingestion API's shapes (langfuse-core's `IngestionEvent`), as its SDKs send them.
 * Unknown keys are ignored; times are ISO-8601 strings (the JS SDK's Dates serialised) or epoch ms.
 */
const time = z.union([z.string(), z.number()]).nullish();
const text = z.string().nullish();
const anyJson = z.unknown().optional();

/** POST /api/public/ingestion: each event is checked on its own, so one bad event costs only itself. */
export const ingestionBody = z.object({
  batch: z.array(z.unknown()),
  metadata: z.unknown().optional(),
});

export const envelope = z.looseObject({
  id: z.string().min(1),
  type: z.string(),
  timestamp: time,
  body: z.record(z.string(), z.unknown()),
});
export type Envelope = z.infer<typeof envelope>;

export const traceBody = z.looseObject({
  id: text,
  timestamp: time,
  name: text,
  userId: text,
  sessionId: text,
  release: text,
  version: text,
  environment: text,
  input: anyJson,
  output: anyJson,
  metadata: anyJson,
  tags: z.array(z.string()).nullish(),
  public: z.boolean().nullish(),
});
export type TraceBody = z.infer<typeof traceBody>;

const numberMap = z.record(z.string(), z.unknown());

export const observationBody = z.looseObject({
  id: text,
  traceId: text,
  parentObservationId: text,
  name: text,
  startTime: time,
  endTime: time,
  completionStartTime: time,
  input: anyJson,
  output: anyJson,
  metadata: anyJson,
  level: z.enum(["DEBUG", "DEFAULT", "WARNING", "ERROR"]).nullish(),
  statusMessage: text,
  version: text,
  environment: text,
  model: text,
  modelParameters: z.record(z.string(), z.unknown()).nullish(),
  usage: numberMap.nullish(),
  usageDetails: numberMap.nullish(),
  costDetails: numberMap.nullish(),
  promptName: text,
  promptVersion: z.number().nullish(),
  /** Legacy `observation-create` / `observation-update` name the kind here. */
  type: text,
});
export type ObservationBody = z.infer<typeof observationBody>;

export const scoreBody = z.looseObject({
  id: text,
  traceId: text,
  observationId: text,
  sessionId: text,
  datasetRunId: text,
  name: z.string().min(1, "a score needs a name"),
  value: z.union([z.number(), z.string(), z.boolean()]),
  dataType: z.enum(["NUMERIC", "BOOLEAN", "CATEGORICAL"]).nullish(),
  comment: text,
  configId: text,
  source: text,
  environment: text,
  metadata: anyJson,
  timestamp: time,
});
export type ScoreBody = z.infer<typeof scoreBody>;

/** Per-event outcome, as Langfuse answers a batch (HTTP 207). */
export const ingestionResponse = z.object({
  successes: z.array(z.object({ id: z.string(), status: z.number() })),
  errors: z.array(z.object({ id: z.string(), status: z.number(), message: z.string() })),
});
export type IngestionResponse = z.infer<typeof ingestionResponse>;
