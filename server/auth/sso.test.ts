import { test } from "node:test";
import assert from "node:assert/strict";
import { withTestDatabases } from "../db/test-databases";
import type { Sql } from "../db/client";
import { resetEnv } from "../env";
import { createApiKey } from "./api-keys";
import { role as roleSchema } from "./schema";
import { signInWithOidc, SsoRefusal } from "./sso";
import { groupsOf, roleFromGroups } from "./sso-roles";
import { bootstrapFirstWorkspace, createWorkspace } from "./workspaces";
import { membership, signUp, verifyPassword } from "./users";

const ISSUER = "https://idp.example";
const refusal = (code: string) => (error: unknown) => error instanceof SsoRefusal && error.code === code;
const withAnnotator = (roleSchema.options as readonly string[]).includes("annotator");

function setEnv(values: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(values))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnv();
}

test("roles from groups: the strongest mapped group wins, else the fallback; unknown roles grant nothing", () => {
  const mapping = {
    claim: "groups",
    map: [
      { group: "devs", role: "member" as const },
      { group: "admins", role: "admin" as const },
      { group: "reviewers", role: "annotator" as const },
    ],
    fallback: "viewer" as const,
  };
  assert.equal(roleFromGroups(["devs", "admins"], mapping), "admin");
  assert.equal(roleFromGroups(["devs", "other"], mapping), "member");
  assert.equal(roleFromGroups([], mapping), "viewer");
  assert.equal(roleFromGroups(null, { ...mapping, fallback: "member" }), "member");
  assert.equal(roleFromGroups(["reviewers"], mapping), withAnnotator ? "annotator" : "viewer");
  assert.equal(roleFromGroups(["reviewers", "devs"], mapping), "member");
  assert.deepEqual(groupsOf({ groups: ["a", 1, "b"] }, "groups"), ["a", "b"]);
  assert.deepEqual(groupsOf({ groups: "a" }, "groups"), ["a"]);
  assert.deepEqual(groupsOf({}, "groups"), []);
  assert.equal(groupsOf({ groups: ["a"] }, undefined), null);
});

withTestDatabases("single sign-on accounts", (open) => {
  let db: Sql;
  let startup: string;
  const claims = (email: string, verified: boolean | undefined, extra: Record<string, unknown> = {}) => ({
    email,
    ...(verified === undefined ? {} : { email_verified: verified }),
    ...extra,
  });

  test("the first account claims the start-up workspace as admin; later ones join it with the default role", async () => {
    setEnv({ OIDC_DEFAULT_WORKSPACE: undefined, OIDC_DEFAULT_ROLE: undefined, OIDC_ROLE_CLAIM: undefined, OIDC_ROLE_MAP: undefined });
    db = (await open()).sql;
    startup = (await bootstrapFirstWorkspace(db))!.workspace.id;
    const first = await signInWithOidc(db, { issuer: ISSUER, subject: "u1", claims: claims("Owner@Corp.example", true) });
    assert.deepEqual([first.email, first.workspaceId, first.role], ["owner@corp.example", startup, "admin"]);
    const second = await signInWithOidc(db, { issuer: ISSUER, subject: "u2", claims: claims("b@corp.example", true, { name: "Bea" }) });
    assert.deepEqual([second.workspaceId, second.role, second.name], [startup, "viewer", "Bea"]);
    assert.equal(await verifyPassword(db, "b@corp.example", ""), null, "no password to sign in with");
  });

  test("linking: a verified e-mail finds the password account; an unverified or missing one is refused", async () => {
    const { userId } = await signUp(db, { email: "ada@corp.example", password: "ada-password-1" });
    await assert.rejects(
      signInWithOidc(db, { issuer: ISSUER, subject: "x1", claims: claims("ada@corp.example", false) }),
      refusal("SsoEmailUnverified"),
    );
    await assert.rejects(
      signInWithOidc(db, { issuer: ISSUER, subject: "x1", claims: claims("ada@corp.example", undefined) }),
      refusal("SsoEmailUnverified"),
    );
    await assert.rejects(
      signInWithOidc(db, { issuer: ISSUER, subject: "x1", claims: { email_verified: "true", email: "ada@corp.example" } }),
      refusal("SsoEmailUnverified"),
      "a string is not the boolean true",
    );
    await assert.rejects(signInWithOidc(db, { issuer: ISSUER, subject: "x2", claims: {} }), refusal("SsoNoEmail"));
    const linked = await signInWithOidc(db, { issuer: ISSUER, subject: "ada-sub", claims: claims("ADA@corp.example", true) });
    assert.equal(linked.userId, userId);
    const other = await signInWithOidc(db, {
      issuer: "https://other-idp.example",
      subject: "ada-sub",
      claims: claims("z@corp.example", true),
    });
    assert.notEqual(other.userId, userId, "a subject is only the same person at the same issuer");
  });

  test("OIDC_DEFAULT_WORKSPACE by name; a role claim keeps SSO-made memberships in step, not others", async () => {
    const team = await db.prisma.$transaction((tx) => createWorkspace(tx, "Research"));
    setEnv({
      OIDC_DEFAULT_WORKSPACE: "Research",
      OIDC_ROLE_CLAIM: "groups",
      OIDC_ROLE_MAP: "devs=member,admins=admin",
      OIDC_DEFAULT_ROLE: "viewer",
    });
    try {
      const sign = (groups: string[]) =>
        signInWithOidc(db, { issuer: ISSUER, subject: "dev", claims: claims("dev@corp.example", true, { groups }) });
      const dev = await sign(["devs"]);
      assert.deepEqual([dev.workspaceId, dev.role], [team.id, "member"]);
      const { record } = await db.prisma.$transaction((tx) =>
        createApiKey(tx, { workspaceId: team.id, userId: dev.userId, kind: "personal", role: "member" }),
      );
      assert.equal((await sign(["admins"])).role, "admin");
      assert.equal((await sign([])).role, "viewer");
      const key = await db.prisma.apiKey.findUnique({ where: { id: record.id } });
      assert.equal(key?.role, "viewer", "the member's personal key follows the role");

      // The owner joined the start-up workspace by claiming it, not through the provider's groups.
      const owner = await signInWithOidc(db, { issuer: ISSUER, subject: "u1", claims: claims("owner@corp.example", true, { groups: [] }) });
      assert.equal(await membership(db, owner.userId, startup), "admin");
      assert.equal(owner.role, "viewer", "and joins Research by the groups");

      setEnv({ OIDC_DEFAULT_WORKSPACE: "No such workspace" });
      await assert.rejects(sign(["devs"]), refusal("SsoNoWorkspace"));
    } finally {
      setEnv({ OIDC_DEFAULT_WORKSPACE: undefined, OIDC_ROLE_CLAIM: undefined, OIDC_ROLE_MAP: undefined, OIDC_DEFAULT_ROLE: undefined });
    }
  });
});
