import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";

interface WorkspaceRow {
  id: string;
  name: string;
  handle: string | null;
  created_at: string;
}

/** "Default workspace" → "default-workspace"; always 3..40 characters of [a-z0-9-]. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug.length >= 3 ? slug : `workspace${slug ? `-${slug}` : ""}`;
}

async function readWorkspace(db: Sql, workspaceId: string): Promise<WorkspaceRow> {
  const [row] = await db.query<WorkspaceRow>(sql`SELECT id, name, handle, created_at FROM workspaces WHERE id = ${workspaceId}`);
  if (!row) throw notFound(`Workspace ${workspaceId} not found.`);
  return row;
}

/**
 * The workspace's hub handle (the owner part of "owner/prompt"). A workspace without one gets it
 * lazily, from its name slugified, with a suffix from its id when another workspace holds that slug.
 */
export async function ensureHandle(db: Sql, workspaceId: string): Promise<string> {
  const row = await readWorkspace(db, workspaceId);
  if (row.handle) return row.handle;
  const base = slugify(row.name);
  for (const candidate of [base, `${base}-${workspaceId.slice(0, 8)}`, `${base}-${workspaceId.replace(/-/g, "")}`]) {
    try {
      const [updated] = await db.query<{ handle: string }>(sql`
        UPDATE workspaces SET handle = coalesce(handle, ${candidate}) WHERE id = ${workspaceId} RETURNING handle`);
      return updated.handle;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw conflict("Could not choose a unique handle for this workspace; set one with POST /settings/handle.");
}

/** GET /settings: the workspace ("tenant") the caller's key belongs to, with its hub handle. */
export async function getSettings(db: Sql, workspaceId: string): Promise<Record<string, unknown>> {
  const handle = await ensureHandle(db, workspaceId);
  const row = await readWorkspace(db, workspaceId);
  return { id: row.id, display_name: row.name, tenant_handle: handle, created_at: isoFromDb(row.created_at) };
}

/** POST /settings/handle: renames the workspace's handle; 409 when another workspace holds it. */
export async function setHandle(db: Sql, workspaceId: string, handle: string): Promise<Record<string, unknown>> {
  await readWorkspace(db, workspaceId);
  try {
    await db.query(sql`UPDATE workspaces SET handle = ${handle} WHERE id = ${workspaceId}`);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`The handle ${JSON.stringify(handle)} is taken by another workspace; choose another.`);
    throw error;
  }
  return getSettings(db, workspaceId);
}
