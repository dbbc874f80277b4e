import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { connect, createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { resetEnv } from "../env";
import { postJson } from "./http";

const portOf = (s: Server | TcpServer) => (s.address() as AddressInfo).port;
const listen = (s: Server | TcpServer) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
const close = (s: Server | TcpServer) => new Promise((r) => s.close(r));

describe("webhooks through EGRESS_PROXY_URL", () => {
  const hooks: { path: string; body: string }[] = [];
  const tunnels: { target: string; auth: string | undefined }[] = [];
  const firstBytes: Buffer[] = [];
  let refuse = false;
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      hooks.push({ path: req.url!, body });
      res.writeHead(200).end("ok");
    });
  });
  // A TCP server that only records what arrives (to see a TLS ClientHello come through the tunnel).
  const tlsSink: TcpServer = createTcpServer((socket) => socket.once("data", (d: Buffer) => (firstBytes.push(d), socket.destroy())));
  // A minimal CONNECT proxy, like the egress proxies deployments put in front of customer traffic.
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on("connect", (req, client, head) => {
    tunnels.push({ target: req.url!, auth: req.headers["proxy-authorization"] });
    if (refuse) return client.end("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n");
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(":")), Number(req.url!.slice(req.url!.lastIndexOf(":") + 1))];
    const upstream = connect(port, host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });

  before(async () => {
    await Promise.all([listen(receiver), listen(proxy), listen(tlsSink)]);
    process.env.EGRESS_PROXY_URL = `http://hook%20user:s3cret@127.0.0.1:${portOf(proxy)}`;
    resetEnv();
  });
  after(async () => {
    delete process.env.EGRESS_PROXY_URL;
    delete process.env.ALLOW_PRIVATE_EGRESS;
    resetEnv();
    for (const s of [receiver, proxy]) s.closeAllConnections();
    await Promise.all([close(receiver), close(proxy), close(tlsSink)]);
  });

  test("an http webhook travels through a CONNECT tunnel, with the proxy's credentials", async () => {
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    resetEnv();
    const result = await postJson(`http://127.0.0.1:${portOf(receiver)}/hook`, { a: 1 });
    assert.deepEqual(result, { ok: true, status: 200, attempts: 1, detail: "HTTP 200" });
    assert.deepEqual(hooks.at(-1), { path: "/hook", body: '{"a":1}' });
    assert.deepEqual(tunnels.at(-1), {
      target: `127.0.0.1:${portOf(receiver)}`,
      auth: `Basic ${Buffer.from("hook user:s3cret").toString("base64")}`,
    });
  });

  test("an https webhook runs TLS end to end inside the tunnel", async () => {
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    resetEnv();
    const result = await postJson(`https://127.0.0.1:${portOf(tlsSink)}/hook`, {}, { maxAttempts: 1 });
    assert.equal(result.ok, false);
    assert.equal(tunnels.at(-1)!.target, `127.0.0.1:${portOf(tlsSink)}`);
    assert.equal(firstBytes.at(-1)![0], 0x16, "the first bytes through the tunnel are a TLS handshake record");
  });

  test("the address guard still decides: a name resolving to a private address is refused before the proxy is asked", async () => {
    delete process.env.ALLOW_PRIVATE_EGRESS;
    resetEnv();
    const before = tunnels.length;
    const result = await postJson(`http://localhost:${portOf(receiver)}/hook`, {});
    assert.equal(result.ok, false);
    assert.match(result.detail, /non-public address/);
    assert.equal(result.attempts, 1, "a refused address is not retried");
    const literal = await postJson(`http://127.0.0.1:${portOf(receiver)}/hook`, {});
    assert.match(literal.detail, /not a public address/);
    assert.equal(tunnels.length, before);
  });

  test("a proxy that refuses the tunnel fails the call with its status", async () => {
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    resetEnv();
    refuse = true;
    try {
      const result = await postJson(`http://127.0.0.1:${portOf(receiver)}/refused`, {}, { maxAttempts: 1 });
      assert.equal(result.ok, false);
      assert.match(result.detail, /egress proxy refused the tunnel to 127\.0\.0\.1:\d+: HTTP 407/);
      assert.ok(!hooks.some((h) => h.path === "/refused"));
    } finally {
      refuse = false;
    }
  });
});
