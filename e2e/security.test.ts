/**
 * Hardening (issue 12): no forged session, no unlimited password guesses, no default secrets,
 * no connection held by a body that never arrives, nothing served from an attachment that can run.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { encode } from "next-auth/jwt";
import { anonymous, newUser, signIn, ui } from "./harness/auth";
import { call } from "./harness/http";
import { multipartBody } from "./harness/multipart";
import { startServer, type RunningServer } from "./harness/server";

const SESSION_COOKIE = "next-auth.session-token";
const signedIn = (jar: Map<string, string>) => jar.has(SESSION_COOKIE);

describe("security", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { REQUEST_TIMEOUT_MS: "2000" } });
  });
  after(async () => server?.stop());

  test("a session forged with the secret earlier versions shipped is refused; a real one works", async () => {
    const user = await newUser(server.url, `forge-${randomUUID()}@example.com`, "forge-password-1");
    assert.equal((await ui(user, "GET", "/sessions")).status, 200, "the real session works");
    for (const secret of ["tracelight-dev-secret-change-me", "tracelight-internal-secret-change-me"]) {
      const forged = await encode({ token: { sub: user.userId, email: "x@example.com" }, secret });
      const r = await anonymous(server.url, "GET", "/sessions", undefined, {
        cookie: `${SESSION_COOKIE}=${forged}`,
        "x-user-id": user.userId,
      });
      assert.equal(r.status, 401, `a cookie signed with ${secret} is not a session`);
    }
  });

  test("rotating X-Forwarded-For does not reset the sign-in lockout (no TRUSTED_PROXIES)", async () => {
    const email = `guess-${randomUUID()}@example.com`;
    await newUser(server.url, email, "right-password-1");
    for (let i = 0; i < 10; i++) {
      assert.equal(signedIn(await signIn(server.url, email, `wrong-${i}`, { "x-forwarded-for": `10.0.0.${i}` })), false);
    }
    const jar = await signIn(server.url, email, "right-password-1", { "x-forwarded-for": "10.0.1.1" });
    assert.equal(signedIn(jar), false, "locked out: the forwarded address was not believed");
  });

  test("a body that stops arriving is cut with 408; a declared oversize body with 413 at once", async () => {
    const { port } = new URL(server.url);
    const answer = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => socket.write(request));
        let data = "";
        socket.on("data", (d) => (data += d));
        socket.on("close", () => resolve(data));
        socket.on("error", reject);
        setTimeout(() => {
          socket.destroy();
          resolve(data);
        }, 15_000);
      });
    const started = Date.now();
    const slow = await answer(
      `POST /runs/batch HTTP/1.1\r\nHost: x\r\nx-api-key: ${server.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"post": [`,
    );
    assert.match(slow, /^HTTP\/1\.1 408/, slow.slice(0, 80));
    assert.ok(Date.now() - started < 10_000);
    const big = await answer(
      `POST /runs/batch HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${1024 ** 3}\r\n\r\n{`,
    );
    assert.match(big, /^HTTP\/1\.1 413/);
    assert.match(big, /MAX_BODY_BYTES/);
  });

  test("attachments are served sandboxed and unsniffed; only raster images, audio and video inline", async () => {
    const id = randomUUID();
    const run = {
      id,
      trace_id: id,
      dotted_order: `20260101T000000000000Z${id}`,
      name: "files",
      run_type: "chain",
      start_time: new Date().toISOString(),
      inputs: {},
    };
    const { body, contentType } = multipartBody([
      { name: `post.${id}`, json: run },
      { name: `attachment.${id}.page`, bytes: Buffer.from("<script>alert(document.cookie)</script>"), contentType: "text/html" },
      {
        name: `attachment.${id}.logo`,
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        contentType: "image/svg+xml",
      },
      { name: `attachment.${id}.photo`, bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]), contentType: "image/png" },
    ]);
    assert.equal((await call(server, "POST", "/runs/multipart", body, { "content-type": contentType })).status, 202);
    const stored = await call(server, "GET", `/runs/${id}`);
    const urls = stored.body.s3_urls as Record<string, { presigned_url: string }>;
    const served = async (name: string) => (await fetch(urls[`attachment.${name}`]!.presigned_url)).headers;
    for (const name of ["page", "logo"]) {
      const headers = await served(name);
      assert.equal(headers.get("content-disposition"), "attachment", name);
      assert.match(headers.get("content-security-policy") ?? "", /^sandbox/, name);
      assert.equal(headers.get("x-content-type-options"), "nosniff", name);
    }
    assert.equal((await served("photo")).get("content-disposition"), "inline");
    assert.match((await served("photo")).get("content-security-policy") ?? "", /^sandbox/);
  });

  test("ingest answered by the front (after Next.js loaded the route) keeps the route's statuses and headers", async () => {
    const batch = (name: string) =>
      JSON.stringify({
        post: [{ id: randomUUID(), trace_id: undefined, name, run_type: "chain", start_time: new Date().toISOString(), inputs: {} }],
      });
    const send = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/runs/batch`, {
        method: "POST",
        headers: { "x-api-key": server.apiKey, "content-type": "application/json", ...headers },
        body,
        duplex: "half",
      } as RequestInit);
    // Next.js adds `vary` for its page payloads (RSC); ingest answers have no variants.
    const shape = async (r: Response) => ({
      status: r.status,
      body: await r.text(),
      headers: [...r.headers.keys()]
        .filter((k) => !["date", "connection", "keep-alive", "transfer-encoding", "content-length", "vary"].includes(k))
        .sort(),
    });
    const firstAnswer = await send(batch("through-next"));
    const laterAnswer = await send(batch("direct"));
    // Next.js marks its answers with `vary`; the front's have none: the later one skipped Next.js (the
    // first did too when an earlier test of this server had Next.js load the route).
    assert.ok(!laterAnswer.headers.has("vary"), "answered by the front");
    const first = await shape(firstAnswer);
    const later = await shape(laterAnswer);
    assert.deepEqual(later, first);
    assert.equal(later.status, 202);
    assert.ok(
      later.headers.includes("x-content-type-options") && later.headers.includes("access-control-allow-origin"),
      later.headers.join(),
    );
    // A chunked body (no Content-Length) streams to the route, which still enforces its limits.
    const chunked = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(batch("chunked")));
        c.close();
      },
    });
    assert.equal((await send(chunked)).status, 202);
    const bad = await send("{not json");
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).detail, /JSON/i);
    const unauthorized = await send(batch("no key"), { "x-api-key": "nope" });
    assert.equal(unauthorized.status, 401);
  });

  test("pages carry a nonce CSP that forbids framing and plugins; every answer is nosniff", async () => {
    const page = await fetch(`${server.url}/signin`);
    const csp = page.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /object-src 'none'/);
    assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
    const html = await page.text();
    assert.ok(html.includes(`nonce="${nonce}"`), "Next.js put the nonce on its scripts");
    assert.notEqual(
      /'nonce-([^']+)'/.exec((await fetch(`${server.url}/signin`)).headers.get("content-security-policy") ?? "")?.[1],
      nonce,
      "a new nonce per page",
    );
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
    assert.equal((await fetch(`${server.url}/info`)).headers.get("x-content-type-options"), "nosniff");
  });
});

test("TRUSTED_PROXIES: behind a configured proxy, each forwarded client has its own lockout", async () => {
  const server = await startServer({ env: { TRUSTED_PROXIES: "127.0.0.1/32, ::1" } });
  try {
    const email = `proxied-${randomUUID()}@example.com`;
    await newUser(server.url, email, "right-password-1");
    for (let i = 0; i < 10; i++) await signIn(server.url, email, `wrong-${i}`, { "x-forwarded-for": "203.0.113.7" });
    assert.equal(
      signedIn(await signIn(server.url, email, "right-password-1", { "x-forwarded-for": "203.0.113.7" })),
      false,
      "the guessing client is locked out",
    );
    const other = await signIn(server.url, email, "right-password-1", { "x-forwarded-for": "198.51.100.9, 203.0.113.7" });
    assert.equal(signedIn(other), false, "a hop the proxy did not add is not believed: still 203.0.113.7");
    assert.equal(
      signedIn(await signIn(server.url, email, "right-password-1", { "x-forwarded-for": "198.51.100.9" })),
      true,
      "another client behind the proxy signs in",
    );
  } finally {
    await server.stop();
  }
});

test("a deployment on PostgreSQL without its secrets refuses to start, saying which", async () => {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    PORT: "0",
    HOSTNAME: "127.0.0.1",
  };
  delete env.NEXTAUTH_SECRET;
  delete env.INTERNAL_SECRET;
  const child = spawn(process.execPath, ["scripts/serve.mjs"], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 60_000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.notEqual(code, 0, output);
  assert.notEqual(code, null, `still running: ${output}`);
  assert.match(output, /NEXTAUTH_SECRET and INTERNAL_SECRET must be set/);
});
