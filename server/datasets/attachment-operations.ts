import { badRequest } from "../core/errors";
import type { StoredAttachment } from "./examples";

/** `<id>.attachments_operations` of a multipart example update. */
export interface AttachmentsOperations {
  rename?: Record<string, string> | null;
  retain?: string[] | null;
}

/**
 * The current attachments an update keeps. With `attachments_operations`: only those renamed and
 * retained. Without them: all when the update uploads none, else none (new uploads replace the
 * set, as the SDKs expect). Two operations that would put two files under one name, or keep and
 * rename the same file, are refused rather than losing or duplicating one.
 */
export function keptAttachments(
  exampleId: string,
  current: Record<string, StoredAttachment>,
  uploads: Record<string, StoredAttachment> | undefined,
  ops: AttachmentsOperations | null | undefined,
): Record<string, StoredAttachment> {
  if (!ops) return uploads && Object.keys(uploads).length ? {} : current;
  const where = `attachments_operations of example ${exampleId}`;
  const kept: Record<string, StoredAttachment> = {};
  const source = new Map<string, string>();
  const keep = (from: string, to: string, how: string) => {
    if (!current[from]) throw badRequest(`${where}: the example has no attachment named ${JSON.stringify(from)} to ${how}.`);
    const earlier = source.get(to);
    if (earlier !== undefined)
      throw badRequest(`${where}: ${JSON.stringify(to)} would hold both ${JSON.stringify(earlier)} and ${JSON.stringify(from)}.`);
    source.set(to, from);
    kept[to] = current[from];
  };
  const retained = new Set(ops.retain ?? []);
  for (const [from, to] of Object.entries(ops.rename ?? {})) {
    if (retained.has(from)) throw badRequest(`${where}: ${JSON.stringify(from)} is both retained and renamed to ${JSON.stringify(to)}.`);
    keep(from, to, "rename");
  }
  for (const name of retained) keep(name, name, "retain");
  return kept;
}
