// The production server: Next.js behind a thin Node HTTP front that does what must happen before a
// request reaches Next (which would otherwise buffer the body or trust any header):
// - a body declared larger than MAX_BODY_BYTES is refused with 413 at once, without reading it;
// - a request whose body stops arriving is cut with 408 after REQUEST_TIMEOUT_MS;
// - a path that is not valid percent-encoding is a 400, not a 500 from the router;
// - the caller's address is resolved once: X-Forwarded-For is believed only from TRUSTED_PROXIES,
//   and what reaches the app in X-Forwarded-For is that one address.
// Usage: node scripts/serve.mjs (PORT, HOSTNAME from the environment).
import { createServer } from "node:http";
import { BlockList, isIP } from "node:net";
import next from "next";

const MiB = 1024 * 1024;
const port = Number(process.env.PORT || 1984);
const hostname = process.env.HOSTNAME || undefined;
const maxBodyBytes = Number(process.env.MAX_BODY_BYTES) || 25 * MiB;
const requestTimeoutMs = Number(process.env.REQUEST_TIMEOUT_MS) || 60_000;
const trusted = trustedProxies(process.env.TRUSTED_PROXIES ?? "");

/** TRUSTED_PROXIES: comma-separated addresses or CIDR ranges of the proxies in front of this server. */
function trustedProxies(list) {
  const blocks = new BlockList();
  for (const entry of list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (!isIP(address)) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR range`);
    if (bits === undefined) blocks.addAddress(address, family);
    else blocks.addSubnet(address, Number(bits), family);
  }
  return blocks;
}

const plain = (address) => (address ?? "").replace(/^::ffff:(?=\d+\.)/, "");
const isTrusted = (address) => isIP(address) !== 0 && trusted.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");

/** The caller: the socket's peer, or, while that hop is a trusted proxy, the address it forwarded for. */
function callerAddress(socketAddress, forwardedFor) {
  let address = plain(socketAddress);
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((s) => plain(s.trim()))
    .filter(Boolean);
  while (isTrusted(address) && hops.length) address = hops.pop();
  return address || "unknown";
}

function refuse(res, status, detail) {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ detail }));
}

const app = next({ dev: false, dir: process.cwd(), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBodyBytes) {
    return refuse(res, 413, `Request body is ${declared} bytes; the limit is ${maxBodyBytes} bytes (MAX_BODY_BYTES).`);
  }
  try {
    decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  } catch {
    return refuse(res, 400, `The path ${JSON.stringify(req.url)} is not valid percent-encoding.`);
  }
  req.headers["x-forwarded-for"] = callerAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
  delete req.headers["x-real-ip"];
  handle(req, res);
});
// Node answers 408 itself when a request's body has not fully arrived within requestTimeout.
server.requestTimeout = requestTimeoutMs;
server.headersTimeout = Math.min(requestTimeoutMs, 60_000);
server.listen(port, hostname, () => console.log(`Listening on http://${hostname ?? "localhost"}:${port}`));

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}
