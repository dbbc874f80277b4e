import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const portOf = (s: Server) => (s.address() as AddressInfo).port;

describe("EGRESS_PROXY_URL: a rule's webhook leaves through the configured proxy", () => {
  let server: RunningServer;
  const hooks: { runId: string; secret: unknown }[] = [];
  const tunnels: string[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      hooks.push({ runId: JSON.parse(body).run?.id, secret: req.headers["x-hook-secret"] });
      res.writeHead(200).end("{}");
    });
  });
  // The egress proxy: a CONNECT-only forward proxy, started here.
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on("connect", (req, client) => {
    tunnels.push(req.url!);
    const at = req.url!.lastIndexOf(":");
    const upstream = connect(Number(req.url!.slice(at + 1)), req.url!.slice(0, at), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });

  before(async () => {
    for (const s of [receiver, proxy]) await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    server = await startServer({
      env: { ALLOW_PRIVATE_EGRESS: "1", EGRESS_PROXY_URL: `http://127.0.0.1:${portOf(proxy)}`, EGRESS_IPS: "192.0.2.1" },
    });
  });
  after(async () => {
    await server?.stop();
    for (const s of [receiver, proxy]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  test("/info says traffic leaves through a proxy, and a webhook arrives through its tunnel", async () => {
    const info = await call(server, "GET", "/info");
    assert.deepEqual(info.body.network, { egress_ips: ["192.0.2.1"], ingress_ips: [], egress_proxy: true });

    const project = await call(server, "POST", "/sessions", { name: "egress-proxy" });
    assert.equal(project.status, 200, JSON.stringify(project.body));
    const rule = await call(server, "POST", "/runs/rules", {
      display_name: "all runs",
      session_id: project.body.id,
      sampling_rate: 1,
      webhooks: [{ url: `http://127.0.0.1:${portOf(receiver)}/hook`, headers: { "x-hook-secret": "s3cret" } }],
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));

    const id = randomUUID();
    const now = new Date().toISOString();
    const sent = await call(server, "POST", "/runs/batch", {
      post: [
        {
          id,
          trace_id: id,
          name: "hooked",
          run_type: "chain",
          start_time: now,
          end_time: now,
          inputs: {},
          outputs: {},
          session_name: "egress-proxy",
        },
      ],
    });
    assert.equal(sent.status, 202);
    const hook = await eventually(async () => hooks.find((h) => h.runId === id), 30_000);
    assert.equal(hook.secret, "s3cret");
    assert.ok(tunnels.includes(`127.0.0.1:${portOf(receiver)}`), `the proxy opened a tunnel to the receiver: ${tunnels.join(", ")}`);
  });
});
