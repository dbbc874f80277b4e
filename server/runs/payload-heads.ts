import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { fromStorage } from "../db/storable";
import { UUID } from "../core/uuid";

/**
 * A run's inputs or outputs cut to a length: the value itself when its JSON text fits, else the
 * first `max` characters of that text and how long the whole text is.
 */
export type PayloadHead = { whole: unknown } | { head: string; chars: number };

export interface RunPayloadHeads {
  inputs: PayloadHead;
  outputs: PayloadHead;
}

interface Row {
  id: string;
  inputs: unknown;
  inputs_head: string | null;
  inputs_chars: number | null;
  outputs: unknown;
  outputs_head: string | null;
  outputs_chars: number | null;
}

const headOf = (whole: unknown, head: string | null, chars: number | null): PayloadHead =>
  head === null ? { whole: whole ?? null } : { head, chars: chars ?? head.length };

/**
 * The inputs and outputs of these runs of the workspace, each cut to `max` characters of its JSON
 * text in the database, so a long payload is not read out whole (an agent's view of a trace).
 */
export async function runPayloadHeads(db: Sql, workspaceId: string, ids: string[], max: number): Promise<Map<string, RunPayloadHeads>> {
  const wanted = ids.filter((id) => UUID.test(id));
  if (wanted.length === 0) return new Map();
  const rows = await db.query<Row>(sql`
    SELECT r.id,
      CASE WHEN length(t.i) <= ${max} THEN r.inputs END AS inputs,
      CASE WHEN length(t.i) > ${max} THEN left(t.i, ${max}) END AS inputs_head, length(t.i) AS inputs_chars,
      CASE WHEN length(t.o) <= ${max} THEN r.outputs END AS outputs,
      CASE WHEN length(t.o) > ${max} THEN left(t.o, ${max}) END AS outputs_head, length(t.o) AS outputs_chars
    FROM runs r CROSS JOIN LATERAL (SELECT r.inputs::text AS i, r.outputs::text AS o) t
    WHERE r.workspace_id = ${workspaceId} AND r.id = ANY(${wanted}::uuid[])`);
  return new Map(
    rows
      .map(fromStorage)
      .map((r) => [
        r.id,
        { inputs: headOf(r.inputs, r.inputs_head, r.inputs_chars), outputs: headOf(r.outputs, r.outputs_head, r.outputs_chars) },
      ]),
  );
}
