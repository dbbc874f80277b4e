import { test } from "node:test";
import assert from "node:assert/strict";
import { withTestDatabases } from "../db/test-databases";
import type { Sql } from "../db/client";
import { AppError } from "../core/errors";
import { createWorkspace } from "./workspaces";
import { createApiKey } from "./api-keys";
import { requestIdentity } from "./identity";

const basic = (user: string, password: string) => ({
  headers: new Headers({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` }),
});
const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;

withTestDatabases("HTTP Basic identities (Langfuse's credentials)", (open) => {
  let db: Sql;
  let workspaceId: string;
  let viewerKey: string;
  test("setup: a workspace with a viewer key", async () => {
    db = (await open()).sql;
    workspaceId = (await createWorkspace(db.prisma, "basic auth")).id;
    viewerKey = (await createApiKey(db.prisma, { workspaceId, role: "viewer" })).key;
  });

  test("the password is the API key (its role applies) and the user part is kept as the public key", async () => {
    const identity = await requestIdentity(basic("pk-lf-team", viewerKey), db, { basic: true });
    assert.equal(identity?.workspaceId, workspaceId);
    assert.equal(identity?.role, "viewer");
    assert.equal(identity?.publicKey, "pk-lf-team");
  });

  test("Basic is read only where a route asks for it, so a proxy's own Basic login does not get in the way", async () => {
    assert.equal(await requestIdentity(basic("someone", "proxy-password"), db), null);
  });

  test("a wrong secret key or a header that is not user:password is a 401", async () => {
    await assert.rejects(requestIdentity(basic("pk", "tl_us_wrong"), db, { basic: true }), status(401));
    await assert.rejects(requestIdentity(basic("pk-only", ""), db, { basic: true }), status(401));
    const garbled = { headers: new Headers({ authorization: `Basic ${Buffer.from("no-colon").toString("base64")}` }) };
    await assert.rejects(requestIdentity(garbled, db, { basic: true }), status(401));
  });
});
