import { z } from "zod";
import type { Sql } from "../db/client";
import { conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";

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

/** The workspace ("tenant") as `GET /settings` answers it. */
export const wireTenant = z.object({ id: z.string(), display_name: z.string(), tenant_handle: z.string(), created_at: z.string() });
export type WireTenant = z.infer<typeof wireTenant>;

async function readWorkspace(db: Sql, workspaceId: string) {
  const row = await db.prisma.workspace.findUnique({
    where: { id: workspaceId },
    select: { id: true, name: true, handle: true, createdAt: true },
  });
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
      // Only a workspace still without a handle takes one: two requests at once agree on the first.
      await db.prisma.workspace.updateMany({ where: { id: workspaceId, handle: null }, data: { handle: candidate } });
      return (await readWorkspace(db, workspaceId)).handle!;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw conflict("Could not choose a unique handle for this workspace; set one with POST /settings/handle.");
}

/** GET /settings: the workspace ("tenant") the caller's key belongs to, with its hub handle. */
export async function getSettings(db: Sql, workspaceId: string): Promise<WireTenant> {
  const handle = await ensureHandle(db, workspaceId);
  const row = await readWorkspace(db, workspaceId);
  return { id: row.id, display_name: row.name, tenant_handle: handle, created_at: isoFromDb(row.createdAt)! };
}

/** POST /settings/handle: renames the workspace's handle; 409 when another workspace holds it. */
export async function setHandle(db: Sql, workspaceId: string, handle: string): Promise<WireTenant> {
  await readWorkspace(db, workspaceId);
  try {
    await db.prisma.workspace.update({ where: { id: workspaceId }, data: { handle } });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`The handle ${JSON.stringify(handle)} is taken by another workspace; choose another.`);
    throw error;
  }
  return getSettings(db, workspaceId);
}
