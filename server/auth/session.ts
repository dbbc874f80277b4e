import { decode } from "next-auth/jwt";
import type { Sql } from "../db/client";
import { env } from "../env";
import { forbidden, unauthorized } from "../core/errors";
import { credentialHeader } from "../core/headers";
import type { Identity } from "./identity";
import { getUser, membership, membershipsOf, type User } from "./users";

/** next-auth's session cookie: `__Secure-` on https deployments; large tokens are split in `.0`, `.1`… */
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

export function parseCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      out.set(name, value);
    }
  }
  return out;
}

function sessionToken(cookies: Map<string, string>): string | null {
  for (const name of SESSION_COOKIES) {
    const whole = cookies.get(name);
    if (whole) return whole;
    const chunks = [...cookies.keys()]
      .filter((k) => k.startsWith(`${name}.`) && /^\d+$/.test(k.slice(name.length + 1)))
      .sort((a, b) => Number(a.slice(name.length + 1)) - Number(b.slice(name.length + 1)));
    if (chunks.length) return chunks.map((k) => cookies.get(k)).join("");
  }
  return null;
}

/** The user id in a request's next-auth session cookie, or null when there is no valid session. */
export async function sessionUserId(headers: Headers): Promise<string | null> {
  const token = sessionToken(parseCookies(headers.get("cookie")));
  if (!token) return null;
  try {
    const payload = await decode({ token, secret: env().NEXTAUTH_SECRET });
    return typeof payload?.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}

/**
 * The signed-in user of a UI request: the session cookie names the user and `x-user-id` must repeat
 * that id. `x-user-id` alone never authenticates (a cross-site page cannot set it with the cookie
 * attached, so the pair also stops request forgery). No `x-user-id` → null (no user identity).
 */
export async function sessionUser({ headers }: { headers: Headers }, db: Sql): Promise<User | null> {
  const claimed = credentialHeader(headers, "x-user-id");
  if (!claimed) return null;
  const userId = await sessionUserId(headers);
  if (!userId) {
    throw unauthorized("x-user-id needs a signed-in session: sign in first (the session cookie is missing, invalid or expired).");
  }
  if (userId !== claimed) {
    throw unauthorized("x-user-id does not match the signed-in user of this session.");
  }
  const user = await getUser(db, userId);
  if (!user) throw unauthorized("The signed-in user no longer exists: sign in again.");
  return user;
}

/**
 * Identifies a signed-in UI user from the next-auth session cookie and x-user-id. The workspace is
 * the one in x-tenant-id (the user must be a member of it) or else the user's first workspace; the
 * role is the user's membership role there.
 */
export async function userIdentity({ headers }: { headers: Headers }, db: Sql): Promise<Identity | null> {
  const user = await sessionUser({ headers }, db);
  if (!user) return null;
  return identityOfUser(db, user.id, credentialHeader(headers, "x-tenant-id"));
}

export async function identityOfUser(db: Sql, userId: string, tenantId: string | null): Promise<Identity> {
  if (tenantId) {
    const role = await membership(db, userId, tenantId);
    if (!role) throw forbidden(`You are not a member of the workspace in x-tenant-id (${tenantId}).`);
    return { kind: "user", workspaceId: tenantId, role, userId };
  }
  const [first] = await membershipsOf(db, userId);
  if (!first) {
    throw forbidden("You are not a member of any workspace: create one (POST /workspaces) or accept an invitation.");
  }
  return { kind: "user", workspaceId: first.workspaceId, role: first.role, userId };
}
