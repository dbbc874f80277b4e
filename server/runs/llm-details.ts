import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { UUID } from "../core/uuid";

/** What ingest derived for a run's model call, beyond the wire run: the run detail's token and cost breakdown. */
export interface LlmDetails {
  model: string | null;
  provider: string | null;
  /** Tokens counted with our tokenizer because the run reported no usage. */
  tokens_estimated: boolean;
  /** cache_read, cache_creation, reasoning, input_audio, output_audio, price_model, cost (by token type), cost_reported. */
  usage_details: Record<string, unknown> | null;
}

export async function readLlmDetails(db: Sql, workspaceId: string, runId: string): Promise<LlmDetails | null> {
  if (!UUID.test(runId)) return null;
  const [row] = await db.query<LlmDetails>(sql`
    SELECT model, provider, tokens_estimated, usage_details FROM runs WHERE workspace_id = ${workspaceId} AND id = ${runId}`);
  return row ? { ...row, tokens_estimated: !!row.tokens_estimated } : null;
}
