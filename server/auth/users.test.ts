import { test } from "node:test";
import assert from "node:assert/strict";
import { withTestDatabases } from "../db/test-databases";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { AppError } from "../core/errors";
import { bootstrapFirstWorkspace, createWorkspace } from "./workspaces";
import { addMember, membership, membershipsOf, signUp, verifyPassword } from "./users";

const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;

withTestDatabases("users", (open) => {
  let db: Sql;
  test("sign-up creates a user, a workspace and an admin membership; the password is salted scrypt", async () => {
    db = (await open()).sql;
    const { userId, workspaceId } = await signUp(db, { email: "  Ada@Example.COM ", password: "correct horse", name: "Ada" });
    const [row] = await db.query<{ email: string; password_hash: string }>(sql`SELECT * FROM users WHERE id = ${userId}`);
    assert.equal(row.email, "ada@example.com");
    assert.match(row.password_hash, /^scrypt\$[\w-]{22}\$[\w-]{86}$/);
    assert.ok(!row.password_hash.includes("correct horse"));
    assert.deepEqual(await membershipsOf(db, userId), [{ workspaceId, name: "Ada's workspace", role: "admin" }]);
    assert.equal(await membership(db, userId, workspaceId), "admin");
  });

  test("the same password gets a different salt and hash for another user", async () => {
    await signUp(db, { email: "bob@example.com", password: "correct horse", workspaceName: "Bob's team" });
    const rows = await db.query<{ password_hash: string }>(sql`SELECT password_hash FROM users ORDER BY email`);
    assert.notEqual(rows[0].password_hash, rows[1].password_hash);
  });

  test("an e-mail signs up once, whatever its case; a failed sign-up leaves no workspace behind", async () => {
    const before = await db.query(sql`SELECT id FROM workspaces`);
    await assert.rejects(signUp(db, { email: "ADA@example.com", password: "x".repeat(10) }), status(409));
    assert.equal((await db.query(sql`SELECT id FROM workspaces`)).length, before.length);
  });

  test("verifyPassword: right password in any e-mail case; wrong password or unknown e-mail → null", async () => {
    const user = await verifyPassword(db, "ADA@example.com", "correct horse");
    assert.equal(user?.email, "ada@example.com");
    assert.equal(user?.name, "Ada");
    assert.equal(await verifyPassword(db, "ada@example.com", "correct horse "), null);
    assert.equal(await verifyPassword(db, "nobody@example.com", "correct horse"), null);
  });

  test("memberships: several workspaces, roles, and none for strangers", async () => {
    const ada = (await verifyPassword(db, "ada@example.com", "correct horse"))!;
    const team = await createWorkspace(db.prisma, "Zeta team");
    await addMember(db.prisma, team.id, ada.id, "viewer");
    const list = await membershipsOf(db, ada.id);
    assert.equal(list.length, 2);
    assert.deepEqual(list[1], { workspaceId: team.id, name: "Zeta team", role: "viewer" });
    await addMember(db.prisma, team.id, ada.id, "member");
    assert.equal(await membership(db, ada.id, team.id), "member");
    const stranger = await createWorkspace(db.prisma, "stranger");
    assert.equal(await membership(db, ada.id, stranger.id), null);
    assert.equal(await membership(db, "not-a-uuid", team.id), null);
    assert.deepEqual(await membershipsOf(db, "not-a-uuid"), []);
  });

  test("the first sign-up joins the workspace start-up created, exactly once even when sign-ups race", async () => {
    const fresh = (await open()).sql;
    assert.equal(await bootstrapFirstWorkspace(fresh), null, "a database with workspaces gets no new first workspace");
    // What bootstrapFirstWorkspace leaves on a fresh database: a workspace nobody has joined yet.
    const first = { workspace: await createWorkspace(fresh.prisma, "Default workspace") };
    await fresh.query(sql`UPDATE workspaces SET claimable = true WHERE id = ${first.workspace.id}`);
    const racers = await Promise.all(
      ["p@example.com", "q@example.com", "r@example.com"].map((email) => signUp(fresh, { email, password: "password-123" })),
    );
    const joined = racers.filter((r) => r.workspaceId === first.workspace.id);
    assert.equal(joined.length, 1, "one account joins the start-up workspace");
    assert.equal(await membership(fresh, joined[0].userId, first.workspace.id), "admin");
    assert.equal(new Set(racers.map((r) => r.workspaceId)).size, 3, "the others get workspaces of their own");
    const later = await signUp(fresh, { email: "s@example.com", password: "password-123" });
    assert.notEqual(later.workspaceId, first.workspace.id);
  });
});
