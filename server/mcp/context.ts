import type { Sql } from "../db/client";
import type { Identity } from "../auth/identity";
import { forbidden } from "../core/errors";

/** Who is calling the MCP tools: the key's workspace and role, and the database to read. */
export interface ToolContext {
  sql: Sql;
  identity: Identity;
  workspaceId: string;
}

/** The same rule as the REST routes' `write` access: a viewer reads, never changes. */
export function requireWrite(ctx: ToolContext): void {
  if (ctx.identity.role !== "admin" && ctx.identity.role !== "member")
    throw forbidden("Your role in this workspace is viewer: it can read but not change data (this tool writes).");
}
