import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Sql, Tx } from "../db/client";
import { conflict, forbidden, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import type { Role } from "./api-keys";
import { isUuid } from "../core/uuid";
import { normalizeEmail, type User } from "./users";
import type { WireMember } from "./wire";
import { recordAudit } from "../audit/record";

/** An invitation can be accepted for this long. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function listMembers(db: Sql, workspaceId: string): Promise<WireMember[]> {
  const rows = await db.prisma.membership.findMany({
    where: { workspaceId },
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
    orderBy: [{ createdAt: "asc" }, { user: { email: "asc" } }],
  });
  return rows.map(({ role, createdAt, user }) => ({
    user_id: user.id,
    email: user.email,
    name: user.name,
    role: role as Role,
    joined_at: isoFromDb(createdAt)!,
  }));
}

/**
 * Invites an e-mail address. The token is returned here once (stored as its SHA-256); a newer
 * invitation for the same address replaces a pending one.
 */
export async function createInvite(db: Sql, workspaceId: string, input: { email: string; role: Role }, invitedBy: string | null) {
  const email = normalizeEmail(input.email);
  const token = `tli_${randomBytes(24).toString("base64url")}`;
  const invite = await db.prisma.$transaction(async (tx) => {
    if (await tx.membership.count({ where: { workspaceId, user: { email } } })) {
      throw conflict(`${email} is already a member of this workspace.`);
    }
    await tx.invite.deleteMany({ where: { workspaceId, email, acceptedAt: null } });
    const created = await tx.invite.create({
      data: {
        id: randomUUID(),
        workspaceId,
        email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy,
        expiresAt: new Date(Date.now() + INVITE_TTL_MS),
      },
    });
    await recordAudit(tx, {
      workspaceId,
      action: "invite.create",
      target: { type: "invite", id: created.id },
      after: { email, role: input.role },
    });
    return created;
  });
  return {
    id: invite.id,
    email,
    role: input.role,
    token,
    accept_path: `/signup?invite=${token}`,
    expires_at: isoFromDb(invite.expiresAt)!,
  };
}

/** The invitations still open, newest first. */
export async function listInvites(db: Sql, workspaceId: string) {
  const rows = await db.prisma.invite.findMany({
    where: { workspaceId, acceptedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true },
  });
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role as Role,
    created_at: isoFromDb(r.createdAt)!,
    expires_at: isoFromDb(r.expiresAt)!,
  }));
}

export async function deleteInvite(db: Sql, workspaceId: string, inviteId: string): Promise<void> {
  const invite = isUuid(inviteId) ? await db.prisma.invite.findFirst({ where: { id: inviteId, workspaceId, acceptedAt: null } }) : null;
  const { count } = invite ? await db.prisma.invite.deleteMany({ where: { id: inviteId, workspaceId, acceptedAt: null } }) : { count: 0 };
  if (!count) throw notFound(`Invitation ${inviteId} not found in this workspace (or already accepted).`);
  await recordAudit(db.prisma, {
    workspaceId,
    action: "invite.delete",
    target: { type: "invite", id: inviteId },
    before: { email: invite!.email, role: invite!.role },
  });
}

/**
 * The signed-in user accepts an invitation sent to their e-mail address; it works once. The claim
 * and the membership are one batch transaction, not an interactive one that could expire while it
 * waits for connections under load: a second accept finds the claim taken, and a membership that
 * already exists is left as it is.
 */
export async function acceptInvite(db: Sql, user: User, token: string): Promise<{ workspace_id: string; role: Role }> {
  const gone = () => notFound("This invitation does not exist, was already accepted, or has expired.");
  const invite = await db.prisma.invite.findFirst({
    where: { tokenHash: hashToken(token), acceptedAt: null, expiresAt: { gt: new Date() } },
  });
  if (!invite) throw gone();
  if (invite.email !== user.email) {
    throw forbidden(`This invitation was sent to ${invite.email}; you are signed in as ${user.email}.`);
  }
  if (await db.prisma.membership.count({ where: { userId: user.id, workspaceId: invite.workspaceId } })) {
    throw conflict("You are already a member of this workspace.");
  }
  const role = invite.role as Role;
  const [claimed] = await db.prisma.$transaction([
    db.prisma.invite.updateMany({ where: { id: invite.id, acceptedAt: null }, data: { acceptedAt: new Date(), acceptedBy: user.id } }),
    db.prisma.membership.createMany({ data: [{ userId: user.id, workspaceId: invite.workspaceId, role }], skipDuplicates: true }),
  ]);
  if (!claimed.count) throw gone();
  await recordAudit(db.prisma, {
    workspaceId: invite.workspaceId,
    action: "invite.accept",
    target: { type: "user", id: user.id },
    after: { email: user.email, role, invite_id: invite.id },
  });
  return { workspace_id: invite.workspaceId, role };
}

/** Locks the workspace's memberships and returns the member's role and the number of admins. */
async function lockedMember(tx: Tx, workspaceId: string, userId: string) {
  const rows = isUuid(userId)
    ? await tx.$queryRaw<{ user_id: string; role: Role }[]>`
        SELECT user_id::text, role FROM memberships WHERE workspace_id = ${workspaceId}::uuid ORDER BY user_id FOR UPDATE`
    : [];
  const member = rows.find((r) => r.user_id === userId);
  if (!member) throw notFound(`User ${userId} is not a member of this workspace.`);
  return { role: member.role, admins: rows.filter((r) => r.role === "admin").length };
}

/** The member's live personal keys in the workspace. */
const personalKeys = (workspaceId: string, userId: string) => ({ workspaceId, userId, kind: "personal", revokedAt: null });

/**
 * Changes a member's role. The last admin cannot step down. The member's personal keys in this
 * workspace follow the new role, so a demotion also demotes their keys.
 */
export async function setMemberRole(db: Sql, workspaceId: string, userId: string, role: Role): Promise<WireMember> {
  await db.prisma.$transaction(async (tx) => {
    const current = await lockedMember(tx, workspaceId, userId);
    if (current.role === "admin" && role !== "admin" && current.admins === 1) {
      throw conflict("This is the workspace's last admin: make another member admin first.");
    }
    await tx.membership.update({ where: { userId_workspaceId: { userId, workspaceId } }, data: { role } });
    await tx.apiKey.updateMany({ where: personalKeys(workspaceId, userId), data: { role } });
    await recordAudit(tx, {
      workspaceId,
      action: "member.role.update",
      target: { type: "user", id: userId },
      before: { role: current.role },
      after: { role },
    });
  });
  const [member] = (await listMembers(db, workspaceId)).filter((m) => m.user_id === userId);
  return member;
}

/** Removes a member (the last admin stays) and revokes their personal keys in this workspace. */
export async function removeMember(db: Sql, workspaceId: string, userId: string): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const current = await lockedMember(tx, workspaceId, userId);
    if (current.role === "admin" && current.admins === 1) {
      throw conflict("This is the workspace's last admin: make another member admin first.");
    }
    await tx.membership.delete({ where: { userId_workspaceId: { userId, workspaceId } } });
    await tx.apiKey.updateMany({ where: personalKeys(workspaceId, userId), data: { revokedAt: new Date() } });
    await recordAudit(tx, { workspaceId, action: "member.remove", target: { type: "user", id: userId }, before: { role: current.role } });
  });
}
