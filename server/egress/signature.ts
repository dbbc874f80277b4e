import { createHmac } from "node:crypto";

/** The header every signed outbound webhook (alerts, rules) carries. */
export const SIGNATURE_HEADER = "X-Tracelight-Signature";

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the receiver's secret: the
 * receiver recomputes it over the raw body and rejects stale timestamps (replays).
 */
export function signature(secret: string, body: string, at = Date.now()): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}
