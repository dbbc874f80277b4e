import { randomUUID } from "node:crypto";
import type { Sql, Tx } from "../db/client";
import { env } from "../env";
import { isUuid } from "../core/uuid";
import type { Role } from "./api-keys";
import { groupsOf, roleFromGroups } from "./sso-roles";
import { normalizeEmail } from "./users";

/**
 * Why a single sign-on was refused. The code travels in the sign-in page's `?error=` (next-auth
 * puts it there) and the page words it, so the address bar never carries text a link could forge.
 */
export type SsoRefusalCode = "SsoNoEmail" | "SsoEmailUnverified" | "SsoNoWorkspace";

export class SsoRefusal extends Error {
  constructor(readonly code: SsoRefusalCode) {
    super(code);
    this.name = "SsoRefusal";
  }
}

/** What this service reads from a validated ID token (next-auth and openid-client checked it). */
export interface OidcSignIn {
  /** `iss` and `sub`: the user's stable identity at the provider. */
  issuer: string;
  subject: string;
  claims: Record<string, unknown>;
}

export interface SsoUser {
  userId: string;
  email: string;
  name: string | null;
  workspaceId: string;
  role: Role;
}

const stringClaim = (claims: Record<string, unknown>, name: string) => {
  const value = claims[name];
  return typeof value === "string" && value.trim() ? value.trim() : null;
};

/**
 * Signs a user in through the OIDC provider. A known identity (issuer + subject) is that user. Else
 * the e-mail must be verified by the provider: a verified e-mail equal to an account's links to it
 * (the password stays usable unless SSO_ONLY), and a new one provisions an account without a
 * password. An unverified e-mail is refused, never linked. The user then joins the deployment's
 * single sign-on workspace if not yet a member; a membership single sign-on made takes the role
 * the provider's groups map to at every sign-in (when a role claim is configured).
 */
export async function signInWithOidc(db: Sql, input: OidcSignIn): Promise<SsoUser> {
  return db.prisma.$transaction(async (tx) => {
    const user = await userOfIdentity(tx, input);
    const workspaceId = await ssoWorkspace(tx);
    const role = await joinWorkspace(tx, user.id, workspaceId, input.claims);
    return { userId: user.id, email: user.email, name: user.name, workspaceId, role };
  });
}

async function userOfIdentity(tx: Tx, { issuer, subject, claims }: OidcSignIn) {
  const select = { id: true, email: true, name: true } as const;
  const known = await tx.userIdentity.findUnique({ where: { issuer_subject: { issuer, subject } }, select: { user: { select } } });
  if (known) {
    await tx.userIdentity.update({ where: { issuer_subject: { issuer, subject } }, data: { lastSignInAt: new Date() } });
    return known.user;
  }
  const rawEmail = stringClaim(claims, "email");
  if (!rawEmail) throw new SsoRefusal("SsoNoEmail");
  if (claims[env().OIDC_EMAIL_VERIFIED_CLAIM] !== true) throw new SsoRefusal("SsoEmailUnverified");
  const email = normalizeEmail(rawEmail);
  const user =
    (await tx.user.findUnique({ where: { email }, select })) ??
    (await tx.user.create({
      data: { id: randomUUID(), email, name: stringClaim(claims, "name"), passwordHash: null, region: env().REGION },
      select,
    }));
  await tx.userIdentity.create({ data: { issuer, subject, userId: user.id } });
  return user;
}

/** OIDC_DEFAULT_WORKSPACE (an id, a handle or a name), else the oldest workspace. */
async function ssoWorkspace(tx: Tx): Promise<string> {
  const named = env().OIDC_DEFAULT_WORKSPACE;
  const where = !named ? {} : isUuid(named) ? { id: named } : { OR: [{ handle: named }, { name: named }] };
  const found = await tx.workspace.findFirst({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  if (!found) throw new SsoRefusal("SsoNoWorkspace");
  return found.id;
}

/**
 * Adds the user to the workspace, or keeps an SSO-made membership's role in step with the groups.
 * The first account into a workspace start-up left for its owner claims it as admin, as the first
 * sign-up does; that membership, like one from an invitation or a sign-up, is not the provider's.
 */
async function joinWorkspace(tx: Tx, userId: string, workspaceId: string, claims: Record<string, unknown>): Promise<Role> {
  const e = env();
  const mapping = { claim: e.OIDC_ROLE_CLAIM, map: e.OIDC_ROLE_MAP, fallback: e.OIDC_DEFAULT_ROLE };
  const role = roleFromGroups(groupsOf(claims, mapping.claim), mapping);
  const key = { userId_workspaceId: { userId, workspaceId } };
  const current = await tx.membership.findUnique({ where: key, select: { role: true, ssoManaged: true } });
  if (current) {
    if (!current.ssoManaged || !mapping.claim || current.role === role) return current.role as Role;
    await tx.membership.update({ where: key, data: { role } });
    // Personal keys follow their member's role, as when an admin changes it.
    await tx.apiKey.updateMany({ where: { workspaceId, userId, kind: "personal", revokedAt: null }, data: { role } });
    return role;
  }
  const claimed = await tx.workspace.updateMany({ where: { id: workspaceId, claimable: true }, data: { claimable: false } });
  if (claimed.count) {
    await tx.membership.create({ data: { userId, workspaceId, role: "admin" } });
    return "admin";
  }
  await tx.membership.create({ data: { userId, workspaceId, role, ssoManaged: true } });
  return role;
}
