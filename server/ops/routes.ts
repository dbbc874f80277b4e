import { timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { clientIp } from "../core/client-ip";
import { env } from "../env";
import { metricsText } from "./metrics";
import { readiness } from "./health";

/**
 * The operational endpoints, for load balancers and Prometheus, without a workspace key: the web instance's
 * route handlers and the worker's small server answer with these.
 */
export const healthz = () => Response.json({ status: "ok" });

export async function readyz(): Promise<Response> {
  const state = await readiness();
  return Response.json({ status: state.ready ? "ready" : "unavailable", checks: state.checks }, { status: state.ready ? 200 : 503 });
}

/**
 * The scrape answers a caller with the Bearer METRICS_TOKEN, or one whose address (as scripts/serve.mjs
 * resolved it: X-Forwarded-For only through TRUSTED_PROXIES) is in METRICS_ALLOW, loopback by default.
 */
export async function metrics(request: Request): Promise<Response> {
  const { METRICS_TOKEN: token, METRICS_ALLOW: allow } = env();
  const caller = clientIp(request.headers);
  const authorization = request.headers.get("authorization");
  const tokenMatches = token !== undefined && authorization !== null && sameSecret(authorization, `Bearer ${token}`);
  if (!tokenMatches && !allowed(caller, allow)) {
    const ways = [token ? "Authorization: Bearer <METRICS_TOKEN>" : null, `a caller in METRICS_ALLOW (${allow.join(", ") || "none"})`];
    return Response.json(
      { detail: `GET /metrics needs ${ways.filter(Boolean).join(" or ")}; this request came from ${caller}.` },
      { status: 401 },
    );
  }
  const { contentType, text } = await metricsText();
  return new Response(text, { headers: { "content-type": contentType } });
}

const lists = new Map<string, BlockList>();
function allowed(caller: string, allow: string[]): boolean {
  const family = isIP(caller);
  if (family === 0) return false;
  const key = allow.join(",");
  let list = lists.get(key);
  if (!list) {
    list = new BlockList();
    for (const entry of allow) {
      const [address = "", bits] = entry.split("/");
      const type = isIP(address) === 6 ? "ipv6" : "ipv4";
      if (bits === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(bits), type);
    }
    lists.set(key, list);
  }
  return list.check(caller, family === 6 ? "ipv6" : "ipv4");
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
