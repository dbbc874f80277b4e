/**
 * Ingest's routes served by scripts/serve.mjs without Next.js's request handling (routing, its
 * request and response adapters, its async contexts): on a 100-run request that was a sizeable share
 * of the server's CPU. A route registers here when Next.js first loads its module, so the front
 * answers that route's first request through Next.js and every later one directly, with the same
 * handler — one copy of the module and of its state. The handlers are the route factory's: they
 * need nothing Next.js provides.
 */
export type DirectHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

// On globalThis: scripts/serve.mjs, outside the bundle, reads it.
const registry = ((globalThis as { tracelightDirectRoutes?: Map<string, DirectHandler> }).tracelightDirectRoutes ??= new Map());

/** `method` requests to the app path `appPath` (no parameters) may skip Next.js once this module is loaded. */
export function serveDirectly(method: "POST", appPath: string, handler: DirectHandler): void {
  registry.set(`${method} ${appPath}`, handler);
}
