import { CORS_HEADERS } from "./cors";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
/** `answers` tells the access tests (server/auth/routes.test.ts) what a method is without a route. */
type Handler = ((request: Request) => Response) & { answers?: 405 | 404 };

/**
 * The methods a REST path does not answer, each a JSON 405 naming the ones it does (in `Allow`).
 * A route file ends with `export const { PUT, DELETE } = methodNotAllowed("GET", "POST")`.
 */
export function methodNotAllowed(...allowed: Method[]): Record<Method, Handler> {
  const allow = [...allowed, "OPTIONS"].join(", ");
  const handler: Handler = (request) =>
    Response.json(
      { detail: `Method ${request.method} is not allowed on ${new URL(request.url).pathname}; it answers ${allowed.join(", ")}.` },
      { status: 405, headers: { ...CORS_HEADERS, Allow: allow } },
    );
  handler.answers = 405;
  return Object.fromEntries(METHODS.map((m) => [m, handler])) as Record<Method, Handler>;
}

/** Every method of a path under the REST tree that matches no route: a JSON 404, never the HTML page. */
export function apiNotFound(): Record<Method, Handler> {
  const handler: Handler = (request) =>
    Response.json(
      { detail: `Not found: no API route for ${request.method} ${new URL(request.url).pathname}.` },
      { status: 404, headers: CORS_HEADERS },
    );
  handler.answers = 404;
  return Object.fromEntries(METHODS.map((m) => [m, handler])) as Record<Method, Handler>;
}
