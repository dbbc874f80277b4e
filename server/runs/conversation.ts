import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { toConversation } from "../llm/conversation";
import type { Conversation } from "../llm/conversation-types";
import { fromStorage } from "../db/storable";
import { UUID } from "../core/uuid";

/** A run's messages in the canonical model (GET /runs/{id}/conversation); null when the run is not in the workspace. */
export async function readConversation(db: Sql, workspaceId: string, runId: string): Promise<Conversation | null> {
  if (!UUID.test(runId)) return null;
  const rows = await db.query<{ run_type: string; inputs: unknown; outputs: unknown }>(
    sql`SELECT run_type, inputs, outputs FROM runs WHERE workspace_id = ${workspaceId} AND id = ${runId}`,
  );
  return rows.length ? toConversation(fromStorage(rows[0])) : null;
}
