import { z } from "zod";
import { putBlob } from "../blobs/store";
import type { Sql } from "../db/client";
import { badRequest, describeZodError } from "../core/errors";
import { shallow } from "../core/json-depth";
import { partText, type Part } from "../http/multipart";
import { updateExamples, type ExampleChange } from "./example-updates";
import { createExamples, type NewExample, type StoredAttachment } from "./examples";
import { split, type WriteResult } from "./schema";

/**
 * The platform examples endpoint (`/v1/platform/datasets/{id}/examples`): one group of parts per
 * example, named `<id>` (JSON body), `<id>.inputs`, `<id>.outputs`, `<id>.attachment.<name>`
 * (bytes, type `mime; length=n`) and, on PATCH, `<id>.attachments_operations`.
 */
const ID =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.(inputs|outputs|attachments_operations|attachment\.(.+)))?$/i;

/** Stored JSON, refused when it nests deeper than MAX_DEPTH (it would overflow the stack on its way to storage). */
const record = shallow(z.record(z.string(), z.unknown()));
const createBody = z.looseObject({
  created_at: z.union([z.string(), z.number()]).nullish(),
  metadata: record.nullish(),
  split,
  source_run_id: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i, "must be a UUID")
    .nullish(),
  use_source_run_io: z.boolean().nullish(),
  use_source_run_attachments: z.array(z.string()).nullish(),
});
const updateBody = z.looseObject({ metadata: record.nullish(), split });
const operations = z.looseObject({ rename: z.record(z.string(), z.string()).nullish(), retain: z.array(z.string()).nullish() });

interface Group {
  id: string;
  body?: Part;
  inputs?: Part;
  outputs?: Part;
  operations?: Part;
  attachments: { name: string; part: Part }[];
}

function group(parts: Part[]): Group[] {
  const groups = new Map<string, Group>();
  for (const part of parts) {
    const match = ID.exec(part.name);
    if (!match)
      throw badRequest(
        `Multipart part ${JSON.stringify(part.name)}: names must be <example uuid>[.inputs|.outputs|.attachment.<name>|.attachments_operations].`,
      );
    const id = match[1].toLowerCase();
    const g = groups.get(id) ?? { id, attachments: [] };
    groups.set(id, g);
    const kind = match[2]?.toLowerCase();
    if (!kind) g.body = part;
    else if (kind === "inputs") g.inputs = part;
    else if (kind === "outputs") g.outputs = part;
    else if (kind === "attachments_operations") g.operations = part;
    else g.attachments.push({ name: match[3], part });
  }
  if (groups.size === 0) throw badRequest("The multipart body has no example parts.");
  return [...groups.values()];
}

async function json<T extends z.ZodType>(part: Part | undefined, schema: T): Promise<z.infer<T> | undefined> {
  if (!part) return undefined;
  const text = await partText(part);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`Multipart part ${JSON.stringify(part.name)} is not valid JSON.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(describeZodError(parsed.error, `part ${part.name}`));
  return parsed.data;
}

async function storeAttachments(db: Sql, g: Group): Promise<Record<string, StoredAttachment> | undefined> {
  if (g.attachments.length === 0) return undefined;
  const out: Record<string, StoredAttachment> = {};
  for (const { name, part } of g.attachments) {
    const mime = part.contentType.split(";")[0].trim() || "application/octet-stream";
    out[name] = { blob_key: await putBlob(db, part.spooled ?? part.body!), mime_type: mime, size: part.size };
  }
  return out;
}

/** POST: creates the examples; `{count, example_ids, as_of}`. */
export async function createFromMultipart(db: Sql, workspaceId: string, datasetId: string, parts: Part[]): Promise<WriteResult> {
  const items: NewExample[] = [];
  for (const g of group(parts)) {
    const body = (await json(g.body, createBody)) ?? {};
    if (!g.inputs && !body.use_source_run_io) throw badRequest(`Example ${g.id} has no ${g.id}.inputs part.`);
    items.push({
      id: g.id,
      inputs: await json(g.inputs, record),
      outputs: (await json(g.outputs, record)) ?? null,
      metadata: body.metadata,
      split: body.split,
      source_run_id: body.source_run_id,
      use_source_run_io: body.use_source_run_io,
      use_source_run_attachments: body.use_source_run_attachments,
      created_at: body.created_at,
      attachments: await storeAttachments(db, g),
    });
  }
  return createExamples(db, workspaceId, datasetId, items);
}

/** PATCH: updates the examples (parts left out keep their values); `{count, example_ids, as_of}`. */
export async function updateFromMultipart(db: Sql, workspaceId: string, datasetId: string, parts: Part[]): Promise<WriteResult> {
  const changes: ExampleChange[] = [];
  for (const g of group(parts)) {
    const body = (await json(g.body, updateBody)) ?? {};
    changes.push({
      id: g.id,
      inputs: await json(g.inputs, record),
      outputs: await json(g.outputs, record),
      metadata: body.metadata,
      split: body.split,
      attachments: await storeAttachments(db, g),
      attachments_operations: await json(g.operations, operations),
    });
  }
  return updateExamples(db, workspaceId, datasetId, changes);
}
