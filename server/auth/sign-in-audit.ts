import { getSql } from "../db/client";
import { currentActor } from "../audit/actor";
import { recordAudit } from "../audit/record";
import { normalizeEmail } from "./users";

export interface SignInAttempt {
  email: string;
  /** The account signed in, when it did. */
  userId?: string | null;
  /** next-auth's provider id: "credentials", or the OIDC provider's. */
  provider: string;
  ok: boolean;
  /** Why a failure failed: "bad_credentials", "locked_out", "sso_only", a provider's reason… */
  reason?: string;
  /** The caller's address; defaults to the one the auth route was called from. */
  ip?: string | null;
}

/**
 * Records a sign-in (`auth.sign_in.success` / `auth.sign_in.failure`) in every workspace the
 * account belongs to, so each workspace's admins see it; an address no account has is recorded
 * once, in no workspace. Password and OIDC sign-ins both come here (server/auth/next-auth.ts).
 */
export async function recordSignInAttempt(attempt: SignInAttempt): Promise<void> {
  const db = await getSql();
  const email = normalizeEmail(attempt.email);
  const user = attempt.userId
    ? await db.prisma.user.findUnique({
        where: { id: attempt.userId },
        select: { id: true, memberships: { select: { workspaceId: true } } },
      })
    : await db.prisma.user.findUnique({ where: { email }, select: { id: true, memberships: { select: { workspaceId: true } } } });
  const ip = attempt.ip ?? currentActor().ip;
  const actor = user
    ? { kind: "user" as const, id: user.id, label: email, ip }
    : { kind: "anonymous" as const, id: null, label: email, ip };
  const workspaces = user?.memberships.length ? user.memberships.map((m) => m.workspaceId) : [null];
  const action = attempt.ok ? "auth.sign_in.success" : "auth.sign_in.failure";
  const after = { provider: attempt.provider, ...(attempt.ok ? {} : { reason: attempt.reason ?? "bad_credentials" }) };
  await db.prisma.$transaction(async (tx) => {
    for (const workspaceId of workspaces)
      await recordAudit(tx, { workspaceId, action, actor, target: user ? { type: "user", id: user.id } : undefined, after });
  });
}
