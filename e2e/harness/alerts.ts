/** What the alert suites share: fast evaluation, a local webhook receiver, its signature check and runs sent through the SDK. */
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { Client } from "langsmith";

/** Evaluation every second, private receivers allowed, quick retries. */
export const ALERTS_FAST = { ALLOW_PRIVATE_EGRESS: "1", ALERTS_INTERVAL_MS: "1000", ALERT_RETRY_BASE_MS: "200" };

export interface Received {
  path: string;
  raw: string;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      received.push({ path: req.url!, raw, body: JSON.parse(raw), headers: req.headers });
      res.writeHead(202, { "content-type": "application/json" }).end('{"status":"success"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

/** The receiver's check of X-Tracelight-Signature: HMAC-SHA256 over "<t>.<raw body>". */
export function verified(secret: string, r: Received): boolean {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers["x-tracelight-signature"] ?? "")) ?? [];
  return !!t && Math.abs(Date.now() / 1000 - Number(t)) < 300 && v1 === createHmac("sha256", secret).update(`${t}.${r.raw}`).digest("hex");
}

/** Finished runs through the SDK, `errors` of them failed. */
export async function sendRuns(client: Client, projectName: string, count: number, errors: number) {
  for (let i = 0; i < count; i++) {
    const start = Date.now();
    await client.createRun({
      id: randomUUID(),
      name: "checkout",
      run_type: "chain",
      project_name: projectName,
      inputs: { i },
      outputs: i < errors ? undefined : { ok: true },
      error: i < errors ? "payment service unavailable" : undefined,
      start_time: start,
      end_time: start + 20,
    });
  }
  await client.awaitPendingTraceBatches();
}

export const destinations = (url: string) => [
  { kind: "webhook", url: `${url}/generic`, secret: "generic-signing-secret" },
  { kind: "slack", url: `${url}/slack`, secret: "slack-signing-secret" },
  { kind: "pagerduty", url: `${url}/pagerduty`, routing_key: "e2e-routing-key", severity: "critical" },
];
