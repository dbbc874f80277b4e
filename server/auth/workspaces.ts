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
    const { key } = await createApiKey(tx, { workspaceId: workspace.id, description: "First key, created at start-up" });
    return { workspace, key };
  });
}
