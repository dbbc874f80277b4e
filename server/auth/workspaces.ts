import { randomUUID } from "node:crypto";
import type { Sql, Tx } from "../db/client";
import { isoFromDb } from "../core/time";
import { env } from "../env";
import { createApiKey } from "./api-keys";

export interface Workspace {
  id: string;
  name: string;
  handle: string | null;
  region: string;
  created_at: string;
}

const toWorkspace = (row: { id: string; name: string; handle: string | null; region: string; createdAt: Date }): Workspace => ({
  id: row.id,
  name: row.name,
  handle: row.handle,
  region: row.region,
  created_at: isoFromDb(row.createdAt)!,
});

export async function createWorkspace(db: Tx, name: string): Promise<Workspace> {
  return toWorkspace(await db.workspace.create({ data: { id: randomUUID(), name, region: env().REGION } }));
}

export async function getWorkspace(db: Sql, id: string): Promise<Workspace | null> {
  const row = await db.prisma.workspace.findUnique({ where: { id } });
  return row ? toWorkspace(row) : null;
}

/**
 * On a database with no workspace at all, creates the first one with an admin key, and returns the
 * plain key so start-up can print it once. Later starts return null.
 */
export async function bootstrapFirstWorkspace(db: Sql): Promise<{ workspace: Workspace; key: string } | null> {
  return db.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`LOCK TABLE workspaces IN EXCLUSIVE MODE`;
    if (await tx.workspace.findFirst({ select: { id: true } })) return null;
    const workspace = toWorkspace(
      await tx.workspace.create({ data: { id: randomUUID(), name: "Default workspace", region: env().REGION, claimable: true } }),
    );
    const { key } = await createApiKey(tx, { workspaceId: workspace.id, description: "First key, created at start-up" });
    return { workspace, key };
  });
}

/**
 * The first sign-up joins the workspace start-up created (where the printed key has been sending
 * traces) as its admin. Exactly one account can: the row lock makes concurrent sign-ups take turns,
 * and the second sees the flag already cleared. Null when there is nothing to claim.
 */
export async function claimStartupWorkspace(tx: Tx, userId: string): Promise<string | null> {
  const [claimed] = await tx.$queryRaw<{ id: string }[]>`
    UPDATE workspaces SET claimable = false
    WHERE id = (SELECT id FROM workspaces WHERE claimable ORDER BY created_at, id LIMIT 1 FOR UPDATE)
    RETURNING id`;
  if (!claimed) return null;
  await tx.membership.create({ data: { userId, workspaceId: claimed.id, role: "admin" } });
  return claimed.id;
}
