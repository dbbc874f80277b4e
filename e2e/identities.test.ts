import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { call, eventually } from "./harness/http";
import { cookieHeader, signIn as signInAt, signUp as signUpAt, ui as uiCall, type Browser } from "./harness/auth";
import { startServer, type RunningServer } from "./harness/server";

describe("identities: users, sessions, keys, roles and isolation", () => {
  let server: RunningServer;
  let ada: Browser;
  let bea: Browser;
  before(async () => {
    server = await startServer();
  });
  after(async () => server?.stop());

  async function signUp(email: string, password: string, name: string) {
    return signUpAt(server.url, email, password, name);
  }
  const signIn = (email: string, password: string) => signInAt(server.url, email, password);
  const ui = (browser: Browser, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    uiCall(browser, method, path, body, headers);

  const runBody = (name: string, project: string) => ({
    id: randomUUID(),
    name,
    run_type: "chain",
    inputs: { q: 1 },
    session_name: project,
  });

  test("sign up over HTTP, sign in through next-auth, the session cookie plus x-user-id is an identity", async () => {
    const created = await signUp("Ada@Example.com", "ada-password-1", "Ada");
    assert.equal(
      (
        await call(
          { url: server.url, apiKey: "" },
          "POST",
          "/auth/signup",
          { email: "ada@example.com", password: "another-pass" },
          { "x-api-key": "" },
        )
      ).status,
      409,
    );
    const badPassword = await signIn("ada@example.com", "wrong-password");
    assert.ok(![...badPassword.keys()].some((k) => k.includes("session-token")), "a wrong password gets no session");
    const cookies = await signIn("ada@example.com", "ada-password-1");
    assert.ok(cookies.has("next-auth.session-token"), `cookies: ${[...cookies.keys()]}`);
    ada = { url: server.url, cookies, userId: created.user_id, workspaceId: created.workspace_id };

    const session = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: cookieHeader(cookies) } }).then((r) => r.json());
    assert.equal(session.user.id, ada.userId);
    const me = await ui(ada, "GET", "/auth");
    assert.equal(me.status, 200);
    assert.equal(me.body.kind, "user");
    assert.equal(me.body.user_id, ada.userId);
    assert.equal(me.body.email, "ada@example.com");
    assert.equal(me.body.workspace_id, ada.workspaceId);
    assert.equal(me.body.role, "admin");
    const sessions = await ui(ada, "GET", "/sessions");
    assert.equal(sessions.status, 200);
  });

  test("x-user-id is refused when it does not match the session, and alone it never authenticates", async () => {
    const wrong = await ui(ada, "GET", "/sessions", undefined, { "x-user-id": randomUUID() });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.detail, /does not match/);
    const alone = await call({ url: server.url, apiKey: "" }, "GET", "/sessions", undefined, { "x-api-key": "", "x-user-id": ada.userId });
    assert.equal(alone.status, 401);
    assert.match(alone.body.detail, /session/);
    const cookieOnly = await call({ url: server.url, apiKey: "" }, "GET", "/sessions", undefined, {
      "x-api-key": "",
      cookie: cookieHeader(ada.cookies),
    });
    assert.equal(cookieOnly.status, 401);
    const forged = await call({ url: server.url, apiKey: "" }, "GET", "/sessions", undefined, {
      "x-api-key": "",
      "x-user-id": ada.userId,
      cookie: "next-auth.session-token=forged",
    });
    assert.equal(forged.status, 401);
    assert.equal((await call({ url: server.url, apiKey: "" }, "GET", "/auth", undefined, { "x-api-key": "" })).status, 401);
    const notMine = await ui(ada, "GET", "/sessions", undefined, { "x-tenant-id": server.workspaceId });
    assert.equal(notMine.status, 403);
  });

  test("a key created through /api-key works with the langsmith client, is listed without its secret, and stops after revocation", async () => {
    const created = await ui(ada, "POST", "/api-key", { description: "laptop" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.kind, "personal");
    assert.equal(created.body.role, "admin");
    const key: string = created.body.key;
    assert.match(key, /^tl_us_/);
    const listed = await ui(ada, "GET", "/api-key");
    assert.equal(listed.status, 200);
    const row = listed.body.find((k: { id: string }) => k.id === created.body.id);
    assert.equal(row.description, "laptop");
    assert.ok(!JSON.stringify(listed.body).includes(key.slice(10)), "the secret is never listed");

    const client = new Client({ apiUrl: server.url, apiKey: key, autoBatchTracing: false });
    const project = await client.createProject({ projectName: `ada-${randomUUID().slice(0, 6)}` });
    assert.equal(project.tenant_id, ada.workspaceId);
    const me = await call({ url: server.url, apiKey: key }, "GET", "/auth");
    assert.equal(me.body.kind, "api_key");
    assert.equal(me.body.api_key_id, created.body.id);
    assert.equal(me.body.key_kind, "personal");
    assert.equal(me.body.user_id, ada.userId);

    assert.equal((await ui(ada, "DELETE", `/api-key/${created.body.id}`)).status, 200);
    await eventually(async () => (await call({ url: server.url, apiKey: key }, "GET", "/sessions")).status === 401);
    await assert.rejects(client.readProject({ projectId: project.id }), /401|Unauthorized|Authentication/i);
    assert.equal((await ui(ada, "DELETE", `/api-key/${created.body.id}`)).status, 404);
  });

  test("invite a viewer: she accepts, reads, and cannot write; a member can; removal ends access", async () => {
    const invite = await ui(ada, "POST", "/members", { email: "bea@example.com", role: "viewer" });
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    const beaAccount = await signUp("bea@example.com", "bea-password-1", "Bea");
    bea = {
      url: server.url,
      cookies: await signIn("bea@example.com", "bea-password-1"),
      userId: beaAccount.user_id,
      workspaceId: beaAccount.workspace_id,
    };
    const accepted = await ui(bea, "POST", "/members/accept", { token: invite.body.token });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.deepEqual(accepted.body, { workspace_id: ada.workspaceId, role: "viewer" });
    assert.equal((await ui(bea, "POST", "/members/accept", { token: invite.body.token })).status, 404, "an invitation works once");

    const workspaces = await ui(bea, "GET", "/workspaces");
    assert.deepEqual(
      workspaces.body.map((w: { id: string; role: string }) => [w.id, w.role]),
      [
        [bea.workspaceId, "admin"],
        [ada.workspaceId, "viewer"],
      ],
    );
    const inAda = { "x-tenant-id": ada.workspaceId };
    assert.equal((await ui(bea, "GET", "/sessions", undefined, inAda)).status, 200);
    const denied = await ui(bea, "POST", "/runs", runBody("nope", "bea-project"), inAda);
    assert.equal(denied.status, 403);
    assert.match(denied.body.detail, /viewer/);
    assert.equal((await ui(bea, "POST", "/members", { email: "x@example.com", role: "admin" }, inAda)).status, 403);

    const beaKey = await ui(bea, "POST", "/api-key", { description: "bea in ada's workspace" }, inAda);
    assert.equal(beaKey.body.role, "viewer");
    const viewerKey = { url: server.url, apiKey: beaKey.body.key as string };
    assert.equal((await call(viewerKey, "GET", "/sessions")).status, 200);
    assert.equal((await call(viewerKey, "POST", "/runs", runBody("nope", "bea-project"))).status, 403);
    const serviceViewer = await ui(ada, "POST", "/api-key", { kind: "service", role: "viewer", description: "dashboards" });
    assert.equal((await call({ url: server.url, apiKey: serviceViewer.body.key }, "POST", "/runs", runBody("nope", "x"))).status, 403);
    assert.equal((await ui(bea, "POST", "/api-key", { kind: "service" }, inAda)).status, 403);

    const members = await ui(ada, "GET", "/members");
    assert.deepEqual(
      members.body.map((m: { email: string; role: string }) => [m.email, m.role]),
      [
        ["ada@example.com", "admin"],
        ["bea@example.com", "viewer"],
      ],
    );
    assert.equal((await ui(ada, "PATCH", `/members/${bea.userId}`, { role: "member" })).status, 200);
    assert.equal((await ui(bea, "POST", "/runs", runBody("allowed", "bea-project"), inAda)).status, 202);
    assert.equal((await ui(ada, "PATCH", `/members/${ada.userId}`, { role: "viewer" })).status, 409, "the last admin stays");

    assert.equal((await ui(ada, "DELETE", `/members/${bea.userId}`)).status, 200);
    assert.equal((await ui(bea, "GET", "/sessions", undefined, inAda)).status, 403);
    await eventually(async () => (await call(viewerKey, "GET", "/sessions")).status === 401);
  });

  test("another workspace's key sees none of this workspace's runs or projects (404, not 403)", async () => {
    const created = await ui(ada, "POST", "/api-key", { kind: "service", description: "ingest" });
    const adaClient = new Client({ apiUrl: server.url, apiKey: created.body.key, autoBatchTracing: false });
    const projectName = `secret-${randomUUID().slice(0, 6)}`;
    const runId = randomUUID();
    await adaClient.createRun({ id: runId, name: "private", run_type: "chain", inputs: { secret: 1 }, project_name: projectName });
    await eventually(async () => (await call({ url: server.url, apiKey: created.body.key }, "GET", `/runs/${runId}`)).status === 200);

    const other = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    assert.equal((await call(server, "GET", `/runs/${runId}`)).status, 404);
    const names: string[] = [];
    for await (const p of other.listProjects()) names.push(String(p.name));
    assert.ok(!names.includes(projectName));
    const sessions = await call(server, "GET", `/sessions?name=${projectName}`);
    assert.deepEqual(sessions.body, []);
    assert.equal((await call(server, "DELETE", `/api-key/${created.body.id}`)).status, 404, "another workspace's key is not found");
    const beaView = await ui(bea, "GET", `/runs/${runId}`);
    assert.equal(beaView.status, 404, "bea (now outside ada's workspace) cannot see the run from her own workspace");
    const tenantMismatch = await call(server, "GET", "/sessions", undefined, { "x-tenant-id": ada.workspaceId });
    assert.equal(tenantMismatch.status, 403);
  });

  test("a signed-in user creates another workspace and becomes its admin", async () => {
    const created = await ui(ada, "POST", "/workspaces", { name: "Ada's lab" });
    assert.equal(created.status, 201);
    assert.equal(created.body.role, "admin");
    const me = await ui(ada, "GET", "/auth", undefined, { "x-tenant-id": created.body.id });
    assert.equal(me.body.workspace_id, created.body.id);
    assert.equal((await call(server, "POST", "/workspaces", { name: "by key" })).status, 403);
  });
});
