import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { isIP, type LookupFunction, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { connect as tlsConnect } from "node:tls";

/**
 * Egress through an HTTP proxy (EGRESS_PROXY_URL). Every target, http or https, is reached through a
 * CONNECT tunnel opened to the address our own guarded lookup resolved (so the SSRF guard still
 * decides where we connect, not the proxy's resolver); TLS runs end to end through the tunnel with
 * the target's name for SNI and certificate checks. The proxy must allow CONNECT to the target ports.
 */

function resolveGuarded(host: string, lookup: LookupFunction): Promise<string> {
  if (isIP(host)) return Promise.resolve(host);
  return new Promise((resolve, reject) => {
    lookup(host, {}, (error, address) => (error ? reject(error) : resolve(address as string)));
  });
}

function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { "proxy-authorization": `Basic ${Buffer.from(credentials).toString("base64")}` };
}

/** Asks the proxy for a tunnel to address:port; resolves with the raw socket once it answered 200. */
export function openTunnel(proxy: URL, address: string, port: number, timeoutMs: number): Promise<Socket> {
  if (proxy.protocol !== "http:") return Promise.reject(new Error(`EGRESS_PROXY_URL must be an http:// proxy, not ${proxy.protocol}`));
  const authority = isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: proxy.hostname.replace(/^\[|\]$/g, ""),
      port: Number(proxy.port || 80),
      method: "CONNECT",
      path: authority,
      headers: { host: authority, ...proxyAuthorization(proxy) },
      timeout: timeoutMs,
      agent: false,
    });
    req.once("connect", (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new Error(`the egress proxy refused the tunnel to ${authority}: HTTP ${res.statusCode}`));
    });
    req.once("timeout", () => req.destroy(new Error(`the egress proxy did not answer within ${timeoutMs} ms`)));
    req.once("error", (error) => reject(new Error(`egress proxy ${proxy.host}: ${error.message}`)));
    req.end();
  });
}

type CreateConnection = (
  options: { timeout?: number; rejectUnauthorized?: boolean; ca?: unknown },
  callback: (error: Error | null, socket?: Duplex) => void,
) => undefined;

/** A one-request agent whose connection is a tunnel through the proxy to `target`. */
export function tunnelAgent(target: URL, proxyUrl: string, lookup: LookupFunction): HttpAgent {
  const proxy = new URL(proxyUrl);
  const secure = target.protocol === "https:";
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const port = Number(target.port || (secure ? 443 : 80));
  const agent = secure ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
  const createConnection: CreateConnection = (options, callback) => {
    (async () => {
      const address = await resolveGuarded(host, lookup);
      const socket = await openTunnel(proxy, address, port, options.timeout ?? 30_000);
      if (!secure) return socket;
      return tlsConnect({
        socket,
        host,
        servername: isIP(host) ? undefined : host,
        rejectUnauthorized: options.rejectUnauthorized ?? true,
        ca: options.ca as string | undefined,
      });
    })().then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error),
    );
    return undefined;
  };
  (agent as unknown as { createConnection: CreateConnection }).createConnection = createConnection;
  return agent;
}
