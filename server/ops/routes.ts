import { timingSafeEqual } from "node:crypto";
import { env } from "../env";
import { metricsText } from "./metrics";
import { readiness } from "./health";

/**
 * The operational endpoints, for load balancers and Prometheus, without a key: the web instance's
 * route handlers and the worker's small server answer with these.
 */
export const healthz = () => Response.json({ status: "ok" });

export async function readyz(): Promise<Response> {
  const state = await readiness();
  return Response.json({ status: state.ready ? "ready" : "unavailable", checks: state.checks }, { status: state.ready ? 200 : 503 });
}

export async function metrics(request: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (token && !sameSecret(request.headers.get("authorization") ?? "", `Bearer ${token}`))
    return Response.json({ detail: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>." }, { status: 401 });
  const { contentType, text } = await metricsText();
  return new Response(text, { headers: { "content-type": contentType } });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
