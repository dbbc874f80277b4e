import { randomBytes, randomUUID, scrypt, timingSafeEqual } from "node:crypto";
import type { Sql, Tx } from "../db/client";
import { env } from "../env";
import { conflict, forbidden } from "../core/errors";
import type { Role } from "./api-keys";
import { claimStartupWorkspace, createWorkspace } from "./workspaces";
import { isUuid } from "../core/uuid";
import { isoFromDb } from "../core/time";

export interface User {
  id: string;
  email: string;
  name: string | null;
  region: string;
  createdAt: string;
}

export interface MembershipSummary {
  workspaceId: string;
  name: string;
  role: Role;
}

const KEY_LENGTH = 64;
const SCRYPT_COST = 16_384;

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: SCRYPT_COST, r: 8, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$<salt b64url>$<hash b64url>`: a fresh 16-byte salt per password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return `scrypt$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64url"));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A hash to compare against when the e-mail is unknown, so both answers take as long. */
let decoyHash: Promise<string> | undefined;

/**
 * Creates a user and a workspace where the user is admin. The e-mail is unique (case-insensitive):
 * a second sign-up with it is a 409.
 */
export async function signUp(
  db: Sql,
  input: { email: string; password: string; name?: string | null; workspaceName?: string | null },
): Promise<{ userId: string; workspaceId: string }> {
  if (env().SSO_ONLY) throw forbidden(ssoOnlyMessage("Sign-up with a password"));
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const userId = randomUUID();
  return db.prisma.$transaction(async (tx) => {
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO users (id, email, name, password_hash, region)
      VALUES (${userId}::uuid, ${email}, ${input.name?.trim() || null}, ${passwordHash}, ${env().REGION})
      ON CONFLICT (email) DO NOTHING RETURNING id`;
    if (!inserted.length) throw conflict(`An account with the e-mail ${email} already exists: sign in instead.`);
    const startup = await claimStartupWorkspace(tx, userId);
    if (startup) return { userId, workspaceId: startup };
    const label = input.workspaceName?.trim() || `${input.name?.trim() || email.split("@")[0]}'s workspace`;
    const workspace = await createWorkspace(tx, label);
    await addMember(tx, workspace.id, userId, "admin");
    return { userId, workspaceId: workspace.id };
  });
}

const USER_FIELDS = { id: true, email: true, name: true, region: true, createdAt: true } as const;
const toUser = (row: { id: string; email: string; name: string | null; region: string; createdAt: Date }): User => ({
  ...row,
  createdAt: isoFromDb(row.createdAt)!,
});

/** With SSO_ONLY, why a password is refused and what to do instead. */
export const ssoOnlyMessage = (what: string) =>
  `${what} is turned off on this deployment: sign in with ${env().OIDC_NAME} (your account is created or found by your e-mail at your first sign-in; invitations land there too).`;

/**
 * The user with this e-mail and password, or null (unknown e-mail, wrong password and an account
 * single sign-on made, which has no password, look alike).
 */
export async function verifyPassword(db: Sql, email: string, password: string): Promise<User | null> {
  const row = await db.prisma.user.findUnique({ where: { email: normalizeEmail(email) }, select: { ...USER_FIELDS, passwordHash: true } });
  if (!row?.passwordHash) {
    await passwordMatches(password, await (decoyHash ??= hashPassword(randomUUID())));
    return null;
  }
  const { passwordHash, ...user } = row;
  return (await passwordMatches(password, passwordHash)) ? toUser(user) : null;
}

export async function getUser(db: Sql, userId: string): Promise<User | null> {
  if (!isUuid(userId)) return null;
  const row = await db.prisma.user.findUnique({ where: { id: userId }, select: USER_FIELDS });
  return row ? toUser(row) : null;
}

/** The user's workspaces, oldest membership first. */
export async function membershipsOf(db: Sql, userId: string): Promise<MembershipSummary[]> {
  if (!isUuid(userId)) return [];
  const rows = await db.prisma.membership.findMany({
    where: { userId },
    select: { workspaceId: true, role: true, workspace: { select: { name: true } } },
    orderBy: [{ createdAt: "asc" }, { workspace: { name: "asc" } }, { workspaceId: "asc" }],
  });
  return rows.map((r) => ({ workspaceId: r.workspaceId, name: r.workspace.name, role: r.role as Role }));
}

/** The user's role in the workspace, or null when not a member. */
export async function membership(db: Sql, userId: string, workspaceId: string): Promise<Role | null> {
  if (!isUuid(userId) || !isUuid(workspaceId)) return null;
  const row = await db.prisma.membership.findUnique({ where: { userId_workspaceId: { userId, workspaceId } }, select: { role: true } });
  return (row?.role as Role | undefined) ?? null;
}

/** Adds the user to the workspace, or changes the role of an existing member. */
export async function addMember(db: Tx, workspaceId: string, userId: string, role: Role): Promise<void> {
  await db.membership.upsert({
    where: { userId_workspaceId: { userId, workspaceId } },
    create: { userId, workspaceId, role },
    update: { role },
  });
}
