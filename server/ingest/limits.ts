import { unprocessable } from "../core/errors";
import { storedLength } from "../db/storable";

/** The run types of the LangSmith SDKs (`RunType` in langsmith's schemas); OTLP spans map to these too. */
export const RUN_TYPES = ["tool", "chain", "llm", "retriever", "embedding", "prompt", "parser"] as const;
export type RunType = (typeof RUN_TYPES)[number];
const RUN_TYPE_SET: ReadonlySet<string> = new Set(RUN_TYPES);

/**
 * The longest run name, counted as stored (db/storable). The name is a key of the run_buckets
 * rollup together with the derived model and provider (truncated to 200 and 100 by llm/derive.ts):
 * a btree index row holds at most 2,704 bytes and a stored character takes at most 3 bytes, so
 * 3 × (500 + 200 + 100) = 2,400 bytes leave room for the key's other columns.
 */
export const MAX_RUN_NAME = 500;
/** Project names, tags and thread ids each have an index of their own. */
export const MAX_INDEXED_TEXT = 1_000;

const count = (n: number) => n.toLocaleString("en");

/** Why a run's name is refused, or null. */
export function runNameFault(name: string | null | undefined): string | null {
  if (typeof name !== "string") return null;
  const length = storedLength(name, MAX_RUN_NAME);
  return length > MAX_RUN_NAME ? `a run name is at most ${count(MAX_RUN_NAME)} characters; this one has ${count(length)}` : null;
}

/** Why a run's run_type is refused, or null (none given means "chain"). */
export function runTypeFault(runType: string | null | undefined): string | null {
  if (runType === null || runType === undefined || RUN_TYPE_SET.has(runType)) return null;
  return `run_type ${JSON.stringify(runType.slice(0, 40))} is not a run type; use one of ${RUN_TYPES.join(", ")}`;
}

/** A run type the SDKs do not know is well-formed JSON the contract refuses: 422, for that run alone. */
export function checkRunType(run: { id?: string | null; run_type?: string | null }): void {
  const fault = runTypeFault(run.run_type);
  if (fault) throw unprocessable(`Run ${run.id}: ${fault}.`);
}

/**
 * Why the indexed text of a run built by the service (OTLP) is refused, or null: what the wire
 * schema checks of a run posted to REST (ingest/schema.ts).
 */
export function runTextFault(run: { name?: string | null; session_name?: string | null; tags?: string[] | null }): string | null {
  const name = runNameFault(run.name);
  if (name) return `name: ${name}`;
  if (run.session_name && run.session_name.length > MAX_INDEXED_TEXT)
    return `session_name: a project name is at most ${count(MAX_INDEXED_TEXT)} characters`;
  if (run.tags?.some((t) => t.length > MAX_INDEXED_TEXT)) return `tags: a tag is at most ${count(MAX_INDEXED_TEXT)} characters`;
  return null;
}
