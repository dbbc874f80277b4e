import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest, describeZodError, notFound } from "../core/errors";
import { uuid } from "../core/uuid";
import { sharedRuns } from "./public-runs";
import { resolveShare } from "./service";

const runsQuery = z.object({
  id: z
    .union([uuid, z.array(uuid)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
});

/** GET /public/{token}/runs with its query already split into keys. */
export async function sharedRunsRequest(db: Sql, token: string, rawQuery: Record<string, string | string[]>) {
  const query = runsQuery.safeParse(rawQuery);
  if (!query.success) throw badRequest(describeZodError(query.error, "query parameters"));
  const shared = await resolveShare(db, token, "run");
  return sharedRuns(db, shared.workspaceId, shared.resourceId, query.data.id);
}

/**
 * The JS SDK's listSharedRuns forgets the `?` and asks for `/public/{t}/runsshare_token=…&id=…`:
 * such a last path segment is read as `runs` followed by its query. Anything else is not found.
 */
export function queryFromRunsSegment(segment: string): Record<string, string | string[]> {
  const view = decodeURIComponent(segment);
  if (!view.startsWith("runs")) throw notFound(`No public view "${view}".`);
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(view.slice("runs".length))) {
    const prior = query[key];
    query[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return query;
}
