import { AsyncLocalStorage } from "node:async_hooks";
import { env, regionBaseUrl } from "../env";

/** The origin (scheme://host[:port]) the current API request was addressed to. */
const requestOrigin = new AsyncLocalStorage<string>();

/** Runs `work` with the request's origin known to publicUrl(); the route factory wraps every handler in it. */
export function withRequestOrigin<T>(request: Request, work: () => Promise<T>): Promise<T> {
  // The Host the client addressed (Next rewrites request.url's host to localhost).
  let origin: string | undefined;
  try {
    const url = new URL(request.url);
    const host = request.headers.get("host");
    origin = host && /^[\w.:[\]-]+$/.test(host) ? `${url.protocol}//${host}` : url.origin;
  } catch {
    origin = undefined;
  }
  return origin ? requestOrigin.run(origin, work) : work();
}

/**
 * The deployment's public base URL: PUBLIC_URL or this region's base URL when configured, else the
 * origin the request came to. Links handed to clients (attachments, share and feedback links) are
 * built on it, so they are absolute and open from wherever the client reached the API.
 */
export function publicBaseUrl(): string {
  const e = env();
  const configured = e.PUBLIC_URL ?? (e.REGION === "eu" ? e.EU_BASE_URL : e.US_BASE_URL);
  return (configured ?? requestOrigin.getStore() ?? regionBaseUrl(e.REGION)).replace(/\/+$/, "");
}

/** An absolute URL for a path of this deployment. */
export const publicUrl = (path: string) => `${publicBaseUrl()}${path}`;
