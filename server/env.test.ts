import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { env, resetEnv } from "./env";

/** Runs `fn` with these environment variables (undefined: unset), then restores them. */
function withEnv<T>(values: Record<string, string | undefined>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, x] of Object.entries(v))
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
    resetEnv();
  };
  apply(values);
  try {
    return fn();
  } finally {
    apply(saved);
  }
}

test("embedded: secrets are generated once into DATA_DIR/secrets.json (0600) and read again", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tl-env-"));
  try {
    const unset = { DATA_DIR: dir, DATABASE_URL: undefined, NEXTAUTH_SECRET: undefined, INTERNAL_SECRET: undefined };
    const first = withEnv(unset, () => env());
    assert.ok(first.NEXTAUTH_SECRET.length >= 32 && first.INTERNAL_SECRET.length >= 32);
    assert.notEqual(first.NEXTAUTH_SECRET, first.INTERNAL_SECRET);
    const file = path.join(dir, "secrets.json");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(file, "utf8")).NEXTAUTH_SECRET, first.NEXTAUTH_SECRET);
    const again = withEnv(unset, () => env());
    assert.equal(again.NEXTAUTH_SECRET, first.NEXTAUTH_SECRET, "a restart keeps the sessions valid");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("with DATABASE_URL, a missing secret refuses to start; a published default or short value is never accepted", () => {
  withEnv({ DATABASE_URL: "postgres://x@127.0.0.1/db", NEXTAUTH_SECRET: undefined, INTERNAL_SECRET: "i".repeat(32) }, () => {
    assert.throws(() => env(), /NEXTAUTH_SECRET must be set/);
  });
  withEnv({ NEXTAUTH_SECRET: "tracelight-dev-secret-change-me" }, () => assert.throws(() => env(), /published default/));
  withEnv({ INTERNAL_SECRET: "short" }, () => assert.throws(() => env(), /at least 16 characters/));
  withEnv({ DATABASE_URL: "postgres://x@127.0.0.1/db", NEXTAUTH_SECRET: "n".repeat(32), INTERNAL_SECRET: "i".repeat(32) }, () => {
    assert.equal(env().NEXTAUTH_SECRET, "n".repeat(32));
  });
});

test("METRICS_ALLOW: loopback by default, a list of addresses and CIDR ranges, anything else refused at start", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tl-env-"));
  try {
    withEnv({ DATA_DIR: dir, DATABASE_URL: undefined, METRICS_ALLOW: undefined }, () =>
      assert.deepEqual(env().METRICS_ALLOW, ["127.0.0.0/8", "::1"]),
    );
    withEnv({ DATA_DIR: dir, DATABASE_URL: undefined, METRICS_ALLOW: " 10.0.0.0/8, 192.0.2.7,fd00::/8 " }, () =>
      assert.deepEqual(env().METRICS_ALLOW, ["10.0.0.0/8", "192.0.2.7", "fd00::/8"]),
    );
    withEnv({ DATA_DIR: dir, DATABASE_URL: undefined, METRICS_ALLOW: "" }, () => assert.deepEqual(env().METRICS_ALLOW, []));
    for (const bad of ["prometheus.internal", "10.0.0.0/33", "10.0.0.1/8/2"])
      withEnv({ DATA_DIR: dir, DATABASE_URL: undefined, METRICS_ALLOW: bad }, () =>
        assert.throws(() => env(), /METRICS_ALLOW.*addresses or CIDR ranges/),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("single sign-on settings: all three or none, SSO_ONLY needs them, group=role pairs with known roles", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tl-env-"));
  const oidc = { OIDC_ISSUER: "https://idp.example/realms/acme", OIDC_CLIENT_ID: "tracelight", OIDC_CLIENT_SECRET: "s3cret" };
  const base = { DATA_DIR: dir, DATABASE_URL: undefined, SSO_ONLY: undefined, OIDC_ROLE_MAP: undefined };
  try {
    withEnv({ ...base, OIDC_ISSUER: "", OIDC_CLIENT_ID: "", OIDC_CLIENT_SECRET: "" }, () => {
      assert.equal(env().OIDC_ISSUER, undefined, "empty is unset");
      assert.equal(env().SSO_ONLY, false);
    });
    withEnv({ ...base, ...oidc }, () => {
      const e = env();
      assert.deepEqual(
        [e.OIDC_NAME, e.OIDC_SCOPES, e.OIDC_DEFAULT_ROLE, e.OIDC_EMAIL_VERIFIED_CLAIM],
        ["SSO", "openid email profile", "viewer", "email_verified"],
      );
      assert.deepEqual(e.OIDC_ROLE_MAP, []);
    });
    withEnv({ ...base, ...oidc, OIDC_ROLE_MAP: " tl-admins=admin, cn=devs=member ,/acme/annotators=annotator" }, () =>
      assert.deepEqual(env().OIDC_ROLE_MAP, [
        { group: "tl-admins", role: "admin" },
        { group: "cn=devs", role: "member" },
        { group: "/acme/annotators", role: "annotator" },
      ]),
    );
    withEnv({ ...base, ...oidc, OIDC_ROLE_MAP: "tl-admins=owner" }, () => assert.throws(() => env(), /OIDC_ROLE_MAP/));
    withEnv({ ...base, ...oidc, OIDC_ROLE_MAP: "admin" }, () => assert.throws(() => env(), /OIDC_ROLE_MAP/));
    withEnv({ ...base, ...oidc, OIDC_CLIENT_SECRET: undefined }, () => assert.throws(() => env(), /set together/));
    withEnv({ ...base, OIDC_ISSUER: undefined, OIDC_CLIENT_ID: undefined, OIDC_CLIENT_SECRET: undefined, SSO_ONLY: "true" }, () =>
      assert.throws(() => env(), /SSO_ONLY: needs single sign-on configured/),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
