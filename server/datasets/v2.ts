import { z } from "zod";
import type { Sql } from "../db/client";
import { decodeOffset, encodeOffset } from "../core/offset-cursor";
import { jsonObjectParam, many } from "../http/query-params";
import { uuid } from "../core/uuid";
import { dataType } from "./schema";
import { listDatasets } from "./service";

/** GET /api/v2/datasets (the client's `datasets.listV2`): the filters this deployment keeps. */
export const datasetListV2 = z.looseObject({
  id: many(uuid),
  name: z.string().optional(),
  name_contains: z.string().optional(),
  data_type: many(dataType),
  /** A JSON object the datasets' metadata must contain, as text. */
  metadata: jsonObjectParam,
  cursor: z.string().max(1000).optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

/** The workspace's datasets, a page at a time, newest first. */
export async function listDatasetsV2(db: Sql, workspaceId: string, q: z.infer<typeof datasetListV2>) {
  const offset = decodeOffset(q.cursor);
  const rows = await listDatasets(db, workspaceId, {
    ids: q.id,
    name: q.name,
    nameContains: q.name_contains,
    dataTypes: q.data_type,
    metadata: q.metadata,
    offset,
    limit: q.page_size + 1,
  });
  return { items: rows.slice(0, q.page_size), next_cursor: rows.length > q.page_size ? encodeOffset(offset + q.page_size) : null };
}
