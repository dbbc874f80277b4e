import type { Sql } from "../db/client";

/**
 * Work that follows stored runs (the automation rules' claim). It runs in memory after the commit
 * and is lost with the process, so it may only hasten work whose record is the database itself.
 */
export type AfterIngest = (db: Sql, workspaceId: string, runIds: string[]) => Promise<unknown>;

// On globalThis: Next.js may load this module more than once (the server's start and its routes),
// and a hook registered at start must be seen by every copy.
const registry = globalThis as unknown as { tracelightAfterIngest?: Map<string, AfterIngest> };

/**
 * A domain registers its work after ingest under a name (registering again replaces it), so
 * ingest calls it without depending on that domain. server/startup.ts loads the domains that do.
 */
export function afterIngest(name: string, hook: AfterIngest): void {
  (registry.tracelightAfterIngest ??= new Map()).set(name, hook);
}

/**
 * Called by ingest once its transaction has committed, with the database it wrote to. It neither
 * delays nor fails the ingest request: the hooks run after the response, and their errors are logged.
 */
export function runsStored(db: Sql, workspaceId: string, runIds: string[]): void {
  if (runIds.length === 0) return;
  for (const [name, hook] of registry.tracelightAfterIngest ?? []) {
    void hook(db, workspaceId, runIds).catch((error: unknown) => console.error(`${name} failed after ingest`, error));
  }
}
