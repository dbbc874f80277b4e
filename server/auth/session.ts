import type { Sql } from "../db/client";
import type { Identity } from "../http/identity";

/**
 * Identifies a signed-in UI user from the next-auth session cookie and x-user-id.
 * Until user accounts exist, a request without an API key has no identity.
 */
export async function userIdentity(request: Request, db: Sql): Promise<Identity | null> {
  void request;
  void db;
  return null;
}
