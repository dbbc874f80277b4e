import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { blobSize, blobUrl, putBlob, type BlobContent } from "./store";

export interface IncomingAttachment {
  runId: string;
  name: string;
  mimeType: string;
  content: BlobContent;
}

/** Writes attachment bytes to the blob store and records them on their runs (a later upload of a name replaces it). */
export async function storeAttachments(db: Sql, workspaceId: string, attachments: IncomingAttachment[]): Promise<void> {
  const rows = await Promise.all(
    attachments.map(async (a) => ({
      id: randomUUID(),
      run_id: a.runId,
      name: a.name,
      mime_type: a.mimeType,
      size: blobSize(a.content),
      blob_key: await putBlob(db, a.content),
    })),
  );
  await db.query(sql`
    INSERT INTO attachments (id, workspace_id, run_id, name, mime_type, size, blob_key)
    SELECT v.id, ${workspaceId}::uuid, v.run_id, v.name, v.mime_type, v.size, v.blob_key
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS v(id uuid, run_id uuid, name text, mime_type text, size integer, blob_key text)
    ON CONFLICT (run_id, name) DO UPDATE SET mime_type = EXCLUDED.mime_type, size = EXCLUDED.size, blob_key = EXCLUDED.blob_key`);
}

export interface AttachmentLink {
  presigned_url: string;
  mime_type: string;
}

/** `s3_urls` as the SDKs read them: `{"attachment.<name>": {presigned_url, mime_type}}` per run. */
export async function attachmentLinks(
  db: Sql,
  workspaceId: string,
  runIds: string[],
): Promise<Map<string, Record<string, AttachmentLink>>> {
  const out = new Map<string, Record<string, AttachmentLink>>();
  if (runIds.length === 0) return out;
  const rows = await db.query<{ run_id: string; name: string; mime_type: string; blob_key: string }>(sql`
    SELECT run_id, name, mime_type, blob_key FROM attachments
    WHERE workspace_id = ${workspaceId} AND run_id = ANY(${runIds}::uuid[])`);
  const urls = await Promise.all(rows.map((row) => blobUrl(row.blob_key, row.mime_type)));
  rows.forEach((row, i) => {
    const links = out.get(row.run_id) ?? {};
    links[`attachment.${row.name}`] = { presigned_url: urls[i]!, mime_type: row.mime_type };
    out.set(row.run_id, links);
  });
  return out;
}
