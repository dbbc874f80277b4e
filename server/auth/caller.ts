import { isoFromDb } from "../core/time";
import type { Sql } from "../db/client";
import { forbidden, unauthorized } from "../core/errors";
import { credentialHeader } from "../core/headers";
import { apiKeyIdentity, type Identity } from "./identity";
import { identityOfUser, sessionUser } from "./session";
import { addMember, getUser, membershipsOf, type User } from "./users";
import { createWorkspace, getWorkspace } from "./workspaces";
import type { Role } from "./api-keys";

export interface Caller {
  /** The workspace identity, or null for a signed-in user who belongs to no workspace yet. */
  identity: Identity | null;
  /** The signed-in user, or the owner of a personal key. */
  user: User | null;
}

/**
 * Who is calling, for the routes that also serve a signed-in user without a workspace
 * (GET /auth, /workspaces, accepting an invitation). Nobody → 401.
 */
export async function resolveCaller(request: Request, db: Sql): Promise<Caller> {
  const key = credentialHeader(request.headers, "x-api-key");
  const tenant = credentialHeader(request.headers, "x-tenant-id");
  if (key) {
    const identity = await apiKeyIdentity(db, key, tenant);
    return { identity, user: identity.userId ? await getUser(db, identity.userId) : null };
  }
  const user = await sessionUser(request, db);
  if (!user) throw unauthorized("Sign in (session cookie with x-user-id) or send an API key in x-api-key.");
  if (tenant) return { identity: await identityOfUser(db, user.id, tenant), user };
  const [first] = await membershipsOf(db, user.id);
  return { identity: first ? { kind: "user", workspaceId: first.workspaceId, role: first.role, userId: user.id } : null, user };
}

/** GET /auth: who the caller is, in which workspace, with which role. */
export async function describeCaller(db: Sql, caller: Caller) {
  const { identity, user } = caller;
  const workspace = identity ? await getWorkspace(db, identity.workspaceId) : null;
  const base = {
    workspace_id: identity?.workspaceId ?? null,
    workspace_name: workspace?.name ?? null,
    region: workspace?.region ?? null,
    role: identity?.role ?? null,
    user_id: user?.id ?? null,
    email: user?.email ?? null,
    name: user?.name ?? null,
  };
  if (identity?.kind === "api_key") {
    const key = await db.prisma.apiKey.findUnique({ where: { id: identity.apiKeyId }, select: { kind: true } });
    return { kind: "api_key" as const, ...base, api_key_id: identity.apiKeyId, key_kind: key?.kind ?? null };
  }
  return { kind: "user" as const, ...base, workspaces: user ? await workspacesOfUser(db, user.id) : [] };
}

async function workspacesOfUser(db: Sql, userId: string) {
  return (await membershipsOf(db, userId)).map((m) => ({ id: m.workspaceId, name: m.name, role: m.role }));
}

/** A user's workspaces; a key's one workspace. */
export async function listWorkspaces(db: Sql, caller: Caller) {
  if (caller.identity?.kind === "api_key") {
    const w = await getWorkspace(db, caller.identity.workspaceId);
    return w ? [{ id: w.id, name: w.name, role: caller.identity.role, region: w.region, created_at: w.created_at }] : [];
  }
  const rows = await db.prisma.membership.findMany({
    where: { userId: caller.user!.id },
    select: { role: true, workspace: true },
    orderBy: [{ createdAt: "asc" }, { workspace: { name: "asc" } }, { workspaceId: "asc" }],
  });
  return rows.map(({ role, workspace: w }) => ({
    id: w.id,
    name: w.name,
    role: role as Role,
    region: w.region,
    created_at: isoFromDb(w.createdAt)!,
  }));
}

/** A signed-in user creates a workspace and becomes its admin. */
export async function createWorkspaceFor(db: Sql, caller: Caller, name: string) {
  if (!caller.user || caller.identity?.kind === "api_key") {
    throw forbidden("Workspaces are created by signed-in users: sign in to the UI (an API key belongs to one workspace).");
  }
  const userId = caller.user.id;
  const workspace = await db.prisma.$transaction(async (tx) => {
    const w = await createWorkspace(tx, name);
    await addMember(tx, w.id, userId, "admin");
    return w;
  });
  return { id: workspace.id, name: workspace.name, role: "admin" as const, region: workspace.region, created_at: workspace.created_at };
}
