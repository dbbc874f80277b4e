import { z } from "zod";
import { jsonObjectParam, many } from "../http/query-params";
import { shallow } from "../core/json-depth";
import { uuid } from "../core/uuid";

const offset = z.coerce.number().int().min(0).default(0);
const limit = z.coerce.number().int().min(1).max(1000).default(100);

export const dataType = z.enum(["kv", "llm", "chat"], "must be one of kv, llm, chat");
/** Stored JSON, refused when it nests deeper than MAX_DEPTH (it would overflow the stack on its way to storage). */
const record = shallow(z.record(z.string(), z.unknown()));
const time = z.union([z.string(), z.number()]);

/** POST /datasets as the SDKs send it (JS: extra.metadata; Python may also send an id). */
export const datasetCreate = z.looseObject({
  id: uuid.nullish(),
  name: z.string().trim().min(1, "must not be empty").max(512),
  description: z.string().nullish(),
  data_type: dataType.nullish(),
  extra: record.nullish(),
  metadata: record.nullish(),
  inputs_schema_definition: record.nullish(),
  outputs_schema_definition: record.nullish(),
});
export type DatasetCreate = z.infer<typeof datasetCreate>;

export const datasetUpdate = z.looseObject({
  name: z.string().trim().min(1, "must not be empty").max(512).nullish(),
  description: z.string().nullish(),
  data_type: dataType.nullish(),
  metadata: record.nullish(),
  inputs_schema_definition: record.nullish(),
  outputs_schema_definition: record.nullish(),
});
export type DatasetUpdate = z.infer<typeof datasetUpdate>;

export const datasetListQuery = z.looseObject({
  id: many(uuid),
  name: z.string().optional(),
  name_contains: z.string().optional(),
  data_type: many(dataType),
  metadata: jsonObjectParam,
  offset,
  limit,
});
export type WireDatasetListQuery = z.infer<typeof datasetListQuery>;

/** Which datasets of the workspace, in the domain's words: every field narrows, absent fields do not. */
export interface DatasetFilter {
  ids?: string[];
  name?: string;
  nameContains?: string;
  dataTypes?: z.infer<typeof dataType>[];
  /** A JSON object the dataset's metadata must contain. */
  metadata?: Record<string, unknown>;
  /** 0 and 100 when absent. */
  offset?: number;
  limit?: number;
}

/** GET /datasets' query parameters as a filter. */
export function datasetFilterFromWire(q: WireDatasetListQuery): DatasetFilter {
  return {
    ids: q.id,
    name: q.name,
    nameContains: q.name_contains,
    dataTypes: q.data_type,
    metadata: q.metadata,
    offset: q.offset,
    limit: q.limit,
  };
}

/** A split is one name or several (stored as an array in metadata.dataset_split). */
export const split = z.union([z.string().min(1), z.array(z.string().min(1))]).nullish();

/** POST /examples (one) and the items of POST /examples/bulk. */
export const exampleCreate = z.looseObject({
  id: uuid.nullish(),
  dataset_id: uuid,
  inputs: record.nullish(),
  outputs: record.nullish(),
  metadata: record.nullish(),
  split,
  source_run_id: uuid.nullish(),
  use_source_run_io: z.boolean().nullish(),
  created_at: time.nullish(),
});
export type ExampleCreate = z.infer<typeof exampleCreate>;
export const exampleCreateMany = z.array(exampleCreate).min(1, "send at least one example").max(10_000);

/** PATCH /examples/{id} and the items of PATCH /examples/bulk (those carry their id). */
export const exampleUpdate = z.looseObject({
  dataset_id: uuid.nullish(),
  inputs: record.nullish(),
  outputs: record.nullish(),
  metadata: record.nullish(),
  split,
});
export type ExampleUpdate = z.infer<typeof exampleUpdate>;
export const exampleUpdateMany = z
  .array(exampleUpdate.extend({ id: uuid }))
  .min(1, "send at least one example")
  .max(10_000);

export const exampleListQuery = z.looseObject({
  dataset: uuid.optional(),
  id: many(uuid),
  as_of: z.string().min(1).optional(),
  splits: many(z.string().min(1)),
  metadata: jsonObjectParam,
  filter: z.string().optional(),
  offset,
  limit,
});
export type WireExampleListQuery = z.infer<typeof exampleListQuery>;

/** Which examples: of a dataset and/or by id, as of a version, narrowed by splits, metadata and a filter. */
export interface ExampleFilter {
  datasetId?: string;
  ids?: string[];
  /** A version: a tag, an ISO-8601 time or "latest" (the current versions when absent). */
  asOf?: string;
  splits?: string[];
  /** A JSON object the example's metadata must contain. */
  metadata?: Record<string, unknown>;
  /** The examples' filter language. */
  filter?: string;
  /** 0 and 100 when absent. */
  offset?: number;
  limit?: number;
}

/** GET /examples' query parameters as a filter. */
export function exampleFilterFromWire(q: WireExampleListQuery): ExampleFilter {
  return {
    datasetId: q.dataset,
    ids: q.id,
    asOf: q.as_of,
    splits: q.splits,
    metadata: q.metadata,
    filter: q.filter,
    offset: q.offset,
    limit: q.limit,
  };
}

export const exampleReadQuery = z.looseObject({ as_of: z.string().min(1).optional() });

export const exampleDeleteQuery = z.looseObject({
  example_ids: many(z.string()).transform(
    (v) =>
      v
        ?.flatMap((s) => s.split(","))
        .map((s) => s.trim())
        .filter(Boolean) ?? [],
  ),
});

export const hardDelete = z.looseObject({
  example_ids: z.array(uuid).min(1, "name at least one example"),
  hard_delete: z.boolean().optional(),
});

export const versionQuery = z.looseObject({ as_of: z.string().min(1).optional(), tag: z.string().min(1).optional() });
export const versionListQuery = z.looseObject({ search: z.string().optional(), offset, limit });
export const diffQuery = z.looseObject({ from_version: z.string().min(1), to_version: z.string().min(1) });
export const splitsQuery = z.looseObject({ as_of: z.string().min(1).optional() });

export const tagUpdate = z.looseObject({ as_of: time, tag: z.string().trim().min(1, "must not be empty").max(200) });

export const splitsUpdate = z.looseObject({
  split_name: z.string().trim().min(1, "must not be empty"),
  examples: z.array(uuid),
  remove: z.boolean().optional().default(false),
});

/** PATCH /v1/platform/datasets/{id}/examples/metadata: array operations on one metadata key. */
export const metadataOperations = z.looseObject({
  example_ids: z.array(uuid).min(1, "name at least one example").max(10_000),
  operations: z
    .array(
      z.looseObject({
        key: z.string().min(1),
        operation: z
          .string()
          .transform((v) => v.toLowerCase())
          .pipe(z.enum(["array_add", "array_remove"], "must be array_add or array_remove")),
        values: z.array(z.unknown()),
      }),
    )
    .min(1, "send at least one operation"),
});
export type MetadataOperations = z.infer<typeof metadataOperations>;

/** POST /datasets/{id}/runs: copy runs' inputs and outputs into new examples. */
export const addRuns = z.looseObject({
  run_ids: z.array(uuid).min(1, "name at least one run").max(1000),
  split,
});

/** A dataset as the SDKs read it, with its example and experiment counts. */
export const wireDataset = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  tenant_id: z.string(),
  data_type: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
  inputs_schema_definition: z.unknown(),
  outputs_schema_definition: z.unknown(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  extra: z.record(z.string(), z.unknown()).nullable(),
  example_count: z.number(),
  session_count: z.number(),
  last_session_start_time: z.string().nullable(),
});
export type WireDataset = z.infer<typeof wireDataset>;

/** An example as the SDKs read it, with signed links to its attachments. */
export const wireExample = z.object({
  id: z.string(),
  dataset_id: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  modified_at: z.string(),
  source_run_id: z.string().nullable(),
  attachment_urls: z.record(z.string(), z.object({ presigned_url: z.string(), s3_url: z.string(), mime_type: z.string() })).nullable(),
});
export type WireExample = z.infer<typeof wireExample>;

/** What a write of examples answers: how many, their ids, and the version it made. */
export const wireWriteResult = z.object({ count: z.number(), example_ids: z.array(z.string()), as_of: z.string().nullable() });
export type WriteResult = z.infer<typeof wireWriteResult>;

/** Examples deleted: how many, and which. */
export const wireExamplesDeleted = z.object({ count: z.number(), example_ids: z.array(z.string()) });

/** A dataset deleted, with how many current examples went with it. */
export const wireDatasetDeleted = z.object({ examples: z.number() });

/** A version of a dataset: its time and the tags on it. */
export const wireVersion = z.object({ as_of: z.string().nullable(), tags: z.array(z.string()) });

/** Example ids added, removed and modified between two versions. */
export const wireVersionDiff = z.object({
  examples_modified: z.array(z.string()),
  examples_added: z.array(z.string()),
  examples_removed: z.array(z.string()),
});
