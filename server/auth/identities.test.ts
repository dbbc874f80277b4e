import { test } from "node:test";
import assert from "node:assert/strict";
import { encode } from "next-auth/jwt";
import { withTestDatabases } from "../db/test-databases";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { env } from "../env";
import { AppError } from "../core/errors";
import { apiKeyIdentity, forgetCachedKeys, type Identity } from "./identity";
import { findApiKey } from "./api-keys";
import { createWorkspaceFor, describeCaller, listWorkspaces, resolveCaller } from "./caller";
import { createKey, listKeys, revokeKey } from "./keys-service";
import { acceptInvite, createInvite, deleteInvite, listInvites, listMembers, removeMember, setMemberRole } from "./members";
import { userIdentity } from "./session";
import { getUser, membership, signUp } from "./users";

const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;

async function uiRequest(userId: string | null, headers: Record<string, string> = {}, tokenSub = userId): Promise<Request> {
  const h = new Headers(headers);
  if (tokenSub) {
    const token = await encode({ token: { sub: tokenSub, email: "x" }, secret: env().NEXTAUTH_SECRET });
    h.set("cookie", `other=1; next-auth.session-token=${token}`);
  }
  if (userId) h.set("x-user-id", userId);
  return new Request("http://localhost/runs", { headers: h });
}

withTestDatabases("identities", (open) => {
  let db: Sql;
  let ada: { userId: string; workspaceId: string };
  let bob: { userId: string; workspaceId: string };
  let adaAdmin: Identity;

  test("setup: two users, each admin of their own workspace", async () => {
    db = (await open()).sql;
    ada = await signUp(db, { email: "ada@example.com", password: "ada-password", name: "Ada" });
    bob = await signUp(db, { email: "bob@example.com", password: "bob-password" });
    adaAdmin = { kind: "user", workspaceId: ada.workspaceId, role: "admin", userId: ada.userId };
  });

  test("session: cookie + matching x-user-id → the user's first workspace as admin", async () => {
    assert.deepEqual(await userIdentity(await uiRequest(ada.userId), db), adaAdmin);
  });

  test("session: x-user-id alone, a wrong x-user-id, or a forged cookie are refused; no x-user-id → no identity", async () => {
    await assert.rejects(userIdentity(await uiRequest(ada.userId, {}, null), db), status(401));
    await assert.rejects(userIdentity(await uiRequest(bob.userId, {}, ada.userId), db), status(401));
    const forged = new Request("http://localhost/", {
      headers: { "x-user-id": ada.userId, cookie: "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.x.y.z.w" },
    });
    await assert.rejects(userIdentity(forged, db), status(401));
    assert.equal(await userIdentity(await uiRequest(null, {}, ada.userId), db), null);
  });

  test("session: a token signed with another secret is refused", async () => {
    const token = await encode({ token: { sub: ada.userId }, secret: "some other secret" });
    const request = new Request("http://localhost/", { headers: { "x-user-id": ada.userId, cookie: `next-auth.session-token=${token}` } });
    await assert.rejects(userIdentity(request, db), status(401));
  });

  test("session: x-tenant-id picks a workspace the user belongs to; another one is 403", async () => {
    await assert.rejects(userIdentity(await uiRequest(ada.userId, { "x-tenant-id": bob.workspaceId }), db), status(403));
    const invite = await createInvite(db, bob.workspaceId, { email: "ADA@example.com", role: "viewer" }, bob.userId);
    const user = (await getUser(db, ada.userId))!;
    assert.deepEqual(await acceptInvite(db, user, invite.token), { workspace_id: bob.workspaceId, role: "viewer" });
    const identity = await userIdentity(await uiRequest(ada.userId, { "x-tenant-id": bob.workspaceId }), db);
    assert.deepEqual(identity, { kind: "user", workspaceId: bob.workspaceId, role: "viewer", userId: ada.userId });
    assert.deepEqual(await userIdentity(await uiRequest(ada.userId), db), adaAdmin, "without x-tenant-id: the first workspace");
  });

  test("invites: token works once, only for its e-mail, not after expiry; stored hashed", async () => {
    const invite = await createInvite(db, ada.workspaceId, { email: "carol@example.com", role: "member" }, ada.userId);
    assert.match(invite.token, /^tli_/);
    const stored = await db.query<{ token_hash: string }>(sql`SELECT token_hash FROM invites WHERE id = ${invite.id}`);
    assert.notEqual(stored[0].token_hash, invite.token);
    assert.equal((await listInvites(db, ada.workspaceId)).length, 1);
    const bobUser = (await getUser(db, bob.userId))!;
    await assert.rejects(acceptInvite(db, bobUser, invite.token), status(403));
    const carol = await signUp(db, { email: "carol@example.com", password: "carol-password" });
    const carolUser = (await getUser(db, carol.userId))!;
    await acceptInvite(db, carolUser, invite.token);
    assert.equal(await membership(db, carol.userId, ada.workspaceId), "member");
    await assert.rejects(acceptInvite(db, carolUser, invite.token), status(404));
    await assert.rejects(createInvite(db, ada.workspaceId, { email: "carol@example.com", role: "admin" }, null), status(409));
    const late = await createInvite(db, ada.workspaceId, { email: "dan@example.com", role: "member" }, null);
    await db.query(sql`UPDATE invites SET expires_at = now() - interval '1 second' WHERE id = ${late.id}`);
    const dan = await signUp(db, { email: "dan@example.com", password: "dan-password" });
    await assert.rejects(acceptInvite(db, (await getUser(db, dan.userId))!, late.token), status(404));
    const pending = await createInvite(db, ada.workspaceId, { email: "erin@example.com", role: "viewer" }, null);
    await assert.rejects(deleteInvite(db, bob.workspaceId, pending.id), status(404), "another workspace's invite");
    await deleteInvite(db, ada.workspaceId, pending.id);
  });

  test("invites: two accepts at once (one batch transaction each, no interactive one) make one membership", async () => {
    const owner = await signUp(db, { email: "owner-race@example.com", password: "owner-password" });
    const invite = await createInvite(db, owner.workspaceId, { email: "racer@example.com", role: "member" }, owner.userId);
    const racer = await signUp(db, { email: "racer@example.com", password: "racer-password" });
    const user = (await getUser(db, racer.userId))!;
    const outcomes = await Promise.allSettled([acceptInvite(db, user, invite.token), acceptInvite(db, user, invite.token)]);
    const accepted = outcomes.filter((o) => o.status === "fulfilled");
    assert.equal(accepted.length, 1, JSON.stringify(outcomes));
    const refused = outcomes.find((o) => o.status === "rejected")!.reason;
    assert.ok(refused instanceof AppError && [404, 409].includes(refused.status), String(refused));
    assert.equal(await membership(db, racer.userId, owner.workspaceId), "member");
    const [{ n }] = await db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM memberships WHERE user_id = ${racer.userId}::uuid AND workspace_id = ${owner.workspaceId}::uuid`,
    );
    assert.equal(n, 1);
  });

  test("members: list, role change, the last admin stays, removal revokes personal keys", async () => {
    const carol = (await db.query<{ id: string }>(sql`SELECT id FROM users WHERE email = 'carol@example.com'`))[0].id;
    assert.deepEqual(
      (await listMembers(db, ada.workspaceId)).map((m) => [m.email, m.role]),
      [
        ["ada@example.com", "admin"],
        ["carol@example.com", "member"],
      ],
    );
    await assert.rejects(setMemberRole(db, ada.workspaceId, ada.userId, "member"), status(409));
    await assert.rejects(removeMember(db, ada.workspaceId, ada.userId), status(409));
    await assert.rejects(setMemberRole(db, ada.workspaceId, bob.userId, "member"), status(404), "not a member here");
    await assert.rejects(setMemberRole(db, bob.workspaceId, carol, "admin"), status(404), "another workspace");
    const carolIdentity: Identity = { kind: "user", workspaceId: ada.workspaceId, role: "member", userId: carol };
    const key = await createKey(db, carolIdentity, { description: "carol's laptop" });
    assert.equal(key.kind, "personal");
    assert.equal(key.role, "member");
    const demoted = await setMemberRole(db, ada.workspaceId, carol, "viewer");
    assert.equal(demoted.role, "viewer");
    assert.equal((await findApiKey(db, key.key))?.role, "viewer", "a demotion demotes the member's personal keys");
    await removeMember(db, ada.workspaceId, carol);
    assert.equal(await membership(db, carol, ada.workspaceId), null);
    assert.equal(await findApiKey(db, key.key), null, "removal revokes the member's personal keys");
  });

  test("keys: personal keys take the user's role; service keys are admin-only; list never shows secrets", async () => {
    const adaAsViewer: Identity = { kind: "user", workspaceId: bob.workspaceId, role: "viewer", userId: ada.userId };
    const personal = await createKey(db, adaAsViewer, { description: "viewer key" });
    assert.equal(personal.role, "viewer");
    assert.equal(personal.user_id, ada.userId);
    assert.match(personal.key, /^tl_us_/);
    await assert.rejects(createKey(db, adaAsViewer, { description: "", kind: "service" }), status(403));
    await assert.rejects(createKey(db, adaAsViewer, { description: "", role: "admin" }), status(400));
    const bobAdmin: Identity = { kind: "user", workspaceId: bob.workspaceId, role: "admin", userId: bob.userId };
    const service = await createKey(db, bobAdmin, { description: "ci", kind: "service", role: "member" });
    assert.equal(service.user_id, null);
    assert.equal(service.role, "member");
    forgetCachedKeys();
    assert.deepEqual(await apiKeyIdentity(db, personal.key, null), {
      kind: "api_key",
      workspaceId: bob.workspaceId,
      role: "viewer",
      apiKeyId: personal.id,
      userId: ada.userId,
    });
    for (let i = 0; i < 50 && !(await findApiKey(db, personal.key))?.lastUsedAt; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok((await findApiKey(db, personal.key))?.lastUsedAt, "a key lookup records last_used_at");
    const adminView = await listKeys(db, bobAdmin);
    assert.deepEqual(adminView.map((k) => k.id).sort(), [personal.id, service.id].sort());
    for (const k of adminView) assert.ok(!("key" in k) && !JSON.stringify(k).includes(personal.key.slice(12)));
    const bobViewerView = await listKeys(db, { ...adaAsViewer, userId: "00000000-0000-0000-0000-000000000000" });
    assert.deepEqual(
      bobViewerView.map((k) => k.id),
      [service.id],
      "non-admins see service keys and their own keys only",
    );
  });

  test("keys: revoke own personal key; others' keys need admin; other workspace's key is 404", async () => {
    const adaAsViewer: Identity = { kind: "user", workspaceId: bob.workspaceId, role: "viewer", userId: ada.userId };
    const bobAdmin: Identity = { kind: "user", workspaceId: bob.workspaceId, role: "admin", userId: bob.userId };
    const [service] = (await listKeys(db, bobAdmin)).filter((k) => k.kind === "service");
    await assert.rejects(revokeKey(db, adaAsViewer, service.id), status(403));
    await assert.rejects(revokeKey(db, adaAdmin, service.id), status(404), "key of another workspace");
    await assert.rejects(revokeKey(db, adaAdmin, "not-a-uuid"), status(404));
    const own = await createKey(db, adaAsViewer, { description: "mine" });
    await revokeKey(db, adaAsViewer, own.id);
    assert.equal(await findApiKey(db, own.key), null);
    await assert.rejects(revokeKey(db, adaAsViewer, own.id), status(404), "already revoked");
    await revokeKey(db, bobAdmin, service.id);
  });

  test("caller: workspaces and GET /auth for a user, for a key, and for a user with no workspace", async () => {
    const request = await uiRequest(ada.userId);
    const caller = await resolveCaller(request, db);
    assert.deepEqual(
      (await listWorkspaces(db, caller)).map((w) => [w.id, w.role]),
      [
        [ada.workspaceId, "admin"],
        [bob.workspaceId, "viewer"],
      ],
    );
    const me = await describeCaller(db, caller);
    assert.equal(me.kind, "user");
    assert.equal(me.email, "ada@example.com");
    assert.equal(me.workspace_id, ada.workspaceId);
    const loner = (await db.query<{ id: string }>(sql`SELECT id FROM users WHERE email = 'dan@example.com'`))[0].id;
    await db.query(sql`DELETE FROM memberships WHERE user_id = ${loner}`);
    const lonely = await resolveCaller(await uiRequest(loner), db);
    assert.equal(lonely.identity, null, "a user with no workspace is still a signed-in caller");
    assert.deepEqual(await listWorkspaces(db, lonely), []);
    assert.equal((await describeCaller(db, lonely)).workspace_id, null);
    await assert.rejects(userIdentity(await uiRequest(loner), db), status(403));
    const fresh = await createWorkspaceFor(db, lonely, "Dan's new start");
    assert.deepEqual(await userIdentity(await uiRequest(loner), db), { kind: "user", workspaceId: fresh.id, role: "admin", userId: loner });
    const key = await createKey(db, adaAdmin, { description: "svc", kind: "service" });
    forgetCachedKeys();
    const keyCaller = await resolveCaller(new Request("http://localhost/", { headers: { "x-api-key": key.key } }), db);
    const keyMe = await describeCaller(db, keyCaller);
    assert.equal(keyMe.kind, "api_key");
    assert.equal(keyMe.workspace_id, ada.workspaceId);
    assert.equal(keyMe.user_id, null);
    assert.deepEqual(
      (await listWorkspaces(db, keyCaller)).map((w) => w.id),
      [ada.workspaceId],
    );
    await assert.rejects(createWorkspaceFor(db, keyCaller, "nope"), status(403));
    const created = await createWorkspaceFor(db, caller, "Ada's second");
    assert.equal(await membership(db, ada.userId, created.id), "admin");
    await assert.rejects(resolveCaller(new Request("http://localhost/"), db), status(401));
  });
});
