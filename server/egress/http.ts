import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { env } from "../env";
import { isNonPublicAddress } from "./address";
import { tunnelAgent } from "./proxy";

/** A URL we refuse to call; says why, for the caller and the rule log. */
export class EgressRefused extends Error {
  readonly clientStatus = 400;
}

export interface EgressResult {
  ok: boolean;
  /** The last HTTP status, or null when no response came back. */
  status: number | null;
  attempts: number;
  detail: string;
}

export interface EgressOptions {
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxAttempts?: number;
  /** First retry delay; doubles each attempt. */
  backoffMs?: number;
}

/**
 * Webhooks normally may only reach the public internet. Tests and deployments whose receivers are
 * on the private network opt out with ALLOW_PRIVATE_EGRESS=1 (read here, per call, so a test can
 * set it).
 */
const privateAllowed = () => env().ALLOW_PRIVATE_EGRESS;

/** Refuses anything but http(s), credentials in the URL, and literal non-public addresses. */
export function checkEgressUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EgressRefused(`"${raw}" is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new EgressRefused(`Only http and https URLs can be called, not ${url.protocol}`);
  if (url.username || url.password) throw new EgressRefused("Put credentials in headers, not in the URL.");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // Names are judged when they are resolved, at connect time (see guardedLookup).
  if (!privateAllowed() && isIP(host) && isNonPublicAddress(host)) {
    throw new EgressRefused(`${url.host} is not a public address.`);
  }
  return url;
}

/**
 * Resolves names at connect time and refuses non-public answers, so a name that resolves to a
 * private address (or is re-pointed there after a check) is never connected to.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const usable = privateAllowed() ? addresses : addresses.filter((a) => !isNonPublicAddress(a.address));
    if (usable.length === 0) return callback(new EgressRefused(`${hostname} resolves to a non-public address.`), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
    callback(null, usable[0].address, usable[0].family);
  });
};

/** How a request reaches `url`: directly, or through the EGRESS_PROXY_URL tunnel; the address guard applies either way. */
function connectVia(url: URL): Pick<RequestOptions, "agent" | "lookup"> {
  const proxy = env().EGRESS_PROXY_URL;
  return proxy ? { agent: tunnelAgent(url, proxy, guardedLookup) } : { lookup: guardedLookup };
}

/**
 * One delivery attempt. It opens its own connection (`agent: false` unless tunnelled): Node's global agent keeps
 * sockets alive, and one the receiver has closed since the last delivery fails the next attempt with a reset
 * before anything is sent — a wasted attempt of the three, and a log line that is not the receiver's answer.
 */
function once(url: URL, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number }> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const options: RequestOptions = {
    agent: false,
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "Tracelight-Webhook/1",
      ...headers,
      "content-length": Buffer.byteLength(body),
    },
    ...connectVia(url),
    timeout: timeoutMs,
  };
  return new Promise((resolve, reject) => {
    const req = send(url, options, (res) => {
      // The answer's body is not used: drain it so the socket is released.
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * POSTs JSON to a customer endpoint. Network errors, timeouts and 5xx answers are retried with
 * exponential backoff (at most `maxAttempts` tries); redirects are not followed.
 */
export async function postJson(rawUrl: string, payload: unknown, options: EgressOptions = {}): Promise<EgressResult> {
  const { headers = {}, timeoutMs = 10_000, maxAttempts = 3, backoffMs = 500 } = options;
  let url: URL;
  try {
    url = checkEgressUrl(rawUrl);
  } catch (error) {
    return { ok: false, status: null, attempts: 0, detail: (error as Error).message };
  }
  const body = JSON.stringify(payload);
  let last: EgressResult = { ok: false, status: null, attempts: 0, detail: "not attempted" };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      const { status } = await once(url, body, headers, timeoutMs);
      if (status >= 200 && status < 300) return { ok: true, status, attempts: attempt, detail: `HTTP ${status}` };
      last = { ok: false, status, attempts: attempt, detail: `HTTP ${status}` };
      if (status < 500) return last;
    } catch (error) {
      last = { ok: false, status: null, attempts: attempt, detail: (error as Error).message };
      if (error instanceof EgressRefused) return last;
    }
    if (attempt < maxAttempts) await sleep(backoffMs * 2 ** (attempt - 1));
  }
  return last;
}

export interface EgressResponse {
  status: number;
  /** The answer's body as text (at most `maxResponseBytes`). */
  body: string;
}

/** An answer whose body is still arriving (a model's server-sent events). */
export interface EgressStream {
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

/**
 * POSTs JSON once and hands back the answer as soon as its headers arrive, its body to be read as
 * it streams: the same URL checks and connect-time address guard as postJson, no retries, no
 * redirects. `timeoutMs` bounds silence on the socket, not the whole answer; `signal` aborts it.
 * Throws EgressRefused for refused URLs and Error otherwise.
 */
export function postJsonStream(
  rawUrl: string,
  payload: unknown,
  options: { headers?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal; accept?: string } = {},
): Promise<EgressStream> {
  const { headers = {}, timeoutMs = 60_000, signal, accept = "application/json" } = options;
  const url = checkEgressUrl(rawUrl);
  const body = JSON.stringify(payload);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const requestOptions: RequestOptions = {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept,
      "user-agent": "Tracelight/1",
      ...headers,
      "content-length": Buffer.byteLength(body),
    },
    ...connectVia(url),
    timeout: timeoutMs,
    signal,
  };
  return new Promise((resolve, reject) => {
    const req = send(url, requestOptions, (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }));
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * POSTs JSON once and reads the answer back (for APIs we call for a result, e.g. generation),
 * through postJsonStream, the body capped at `maxResponseBytes`.
 */
export async function postJsonForResponse(
  rawUrl: string,
  payload: unknown,
  options: { headers?: Record<string, string>; timeoutMs?: number; maxResponseBytes?: number } = {},
): Promise<EgressResponse> {
  const { maxResponseBytes = 4 * 1024 * 1024, ...rest } = options;
  const answer = await postJsonStream(rawUrl, payload, rest);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxResponseBytes) {
      answer.body.destroy();
      throw new Error(`answer larger than ${maxResponseBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return { status: answer.status, body: Buffer.concat(chunks).toString("utf8") };
}
