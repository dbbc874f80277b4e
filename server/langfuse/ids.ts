import { isUuid, nameUuid } from "../core/uuid";

/**
 * The run (or feedback) id of a Langfuse id. Langfuse ids are any string (often UUIDs, sometimes
 * not); runs need UUIDs, so a non-UUID id becomes a name-based UUID of it. It does not depend on the
 * workspace, so the same SDK id always names the same run and a read by the Langfuse id finds it.
 */
export function runIdOf(langfuseId: string): string {
  return isUuid(langfuseId) ? langfuseId.toLowerCase() : nameUuid(`langfuse:${langfuseId}`);
}
