import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest, describeZodError } from "../http/errors";
import { uuid } from "../feedback/schema";
import { sharedRuns } from "./public-runs";
import { resolveShare } from "./service";

const runsQuery = z.object({
  id: z.union([uuid, z.array(uuid)]).optional().transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
});

/** GET /public/{token}/runs with its query already split into keys. */
export async function sharedRunsRequest(db: Sql, token: string, rawQuery: Record<string, string | string[]>) {
  const query = runsQuery.safeParse(rawQuery);
  if (!query.success) throw badRequest(describeZodError(query.error, "query parameters"));
  const shared = await resolveShare(db, token, "run");
  return sharedRuns(db, shared.workspaceId, shared.resourceId, query.data.id);
}
