import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { notFound } from "../core/errors";

export const DEFAULT_PROJECT = "default";

/**
 * Resolves the projects runs name, creating those named by session_name on demand. A session_id
 * must already exist in the workspace.
 */
export async function resolveProjects(
  db: Sql,
  workspaceId: string,
  refs: { sessionId?: string | null; sessionName?: string | null }[],
): Promise<{ byName: Map<string, string>; ids: Set<string> }> {
  const names = [...new Set(refs.filter((r) => !r.sessionId).map((r) => r.sessionName || DEFAULT_PROJECT))];
  const ids = [...new Set(refs.map((r) => r.sessionId).filter((id): id is string => !!id))];
  const byName = new Map<string, string>();
  if (names.length > 0) {
    const lookup = async () => {
      const rows = await db.query<{ id: string; name: string }>(sql`
        SELECT id, name FROM projects WHERE workspace_id = ${workspaceId} AND name = ANY(${names}::text[])`);
      for (const row of rows) byName.set(row.name, row.id);
    };
    // Usually every project exists already: one lookup. Otherwise create the missing ones and look again.
    await lookup();
    if (byName.size < names.length) {
      await db.query(sql`
        INSERT INTO projects (id, workspace_id, name)
        SELECT gen_random_uuid(), ${workspaceId}, n FROM unnest(${names}::text[]) AS n
        ON CONFLICT (workspace_id, name) DO NOTHING`);
      await lookup();
    }
  }
  if (ids.length > 0) {
    const rows = await db.query<{ id: string }>(sql`
      SELECT id FROM projects WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[])`);
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw notFound(`Project (session) ${missing} not found in this workspace.`);
  }
  return { byName, ids: new Set(ids) };
}
