import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { env } from "../env";
import { createApiKey } from "./api-keys";

export interface Workspace {
  id: string;
  name: string;
  handle: string | null;
  region: string;
  created_at: string;
}

export async function createWorkspace(db: Sql, name: string): Promise<Workspace> {
  const [row] = await db.query<Workspace>(sql`
    INSERT INTO workspaces (id, name, region) VALUES (${randomUUID()}, ${name}, ${env().REGION}) RETURNING *`);
  return row;
}

export async function getWorkspace(db: Sql, id: string): Promise<Workspace | null> {
  const [row] = await db.query<Workspace>(sql`SELECT * FROM workspaces WHERE id = ${id}`);
  return row ?? null;
}

/**
 * On a database with no workspace at all, creates the first one with an admin key, and returns the
 * plain key so start-up can print it once. Later starts return null.
 */
export async function bootstrapFirstWorkspace(db: Sql): Promise<{ workspace: Workspace; key: string } | null> {
  return db.tx(async (tx) => {
    await tx.query(sql`LOCK TABLE workspaces IN EXCLUSIVE MODE`);
    const [existing] = await tx.query(sql`SELECT id FROM workspaces LIMIT 1`);
    if (existing) return null;
    const workspace = await createWorkspace(tx, "Default workspace");
    await tx.query(sql`UPDATE workspaces SET claimable = true WHERE id = ${workspace.id}`);
    const { key } = await createApiKey(tx, { workspaceId: workspace.id, description: "First key, created at start-up" });
    return { workspace, key };
  });
}

/**
 * The first sign-up joins the workspace start-up created (where the printed key has been sending
 * traces) as its admin. Exactly one account can: the row lock makes concurrent sign-ups take turns,
 * and the second sees the flag already cleared. Null when there is nothing to claim.
 */
export async function claimStartupWorkspace(tx: Sql, userId: string): Promise<string | null> {
  const [claimed] = await tx.query<{ id: string }>(sql`
    UPDATE workspaces SET claimable = false
    WHERE id = (SELECT id FROM workspaces WHERE claimable ORDER BY created_at, id LIMIT 1 FOR UPDATE)
    RETURNING id`);
  if (!claimed) return null;
  await tx.query(sql`INSERT INTO memberships (user_id, workspace_id, role) VALUES (${userId}, ${claimed.id}, 'admin')`);
  return claimed.id;
}
