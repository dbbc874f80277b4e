import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** What a route file's method is, for the access policy: the factory's access, or what answers instead. */
export type Classification =
  "public" | "read" | "feedback" | "review" | "write" | "admin" | "not-allowed" | "not-found" | "next-auth" | "trpc";

export interface RouteMethod {
  file: string;
  /** The URL path with each `[param]` as `{param}` (catch-alls as `{...param}`). */
  path: string;
  method: Method;
  classification: Classification | null;
}

/** The route files that do not go through the route factory, and why. */
const OUTSIDE_FACTORY: Record<string, Classification> = {
  "app/api/auth/[...nextauth]/route.ts": "next-auth",
  "app/api/trpc/[trpc]/route.ts": "trpc",
};

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return routeFiles(file);
    return name === "route.ts" ? [file] : [];
  });
}

const urlPath = (file: string) =>
  "/" +
  path
    .dirname(path.relative("app", file))
    .split(path.sep)
    .map((part) => part.replace(/^\[(\.\.\.)?(\w+)\]$/, (_, rest, name) => `{${rest ?? ""}${name}}`))
    .join("/");

/**
 * Every method of every `app/api/**\/route.ts`, loaded, with its classification: the access the
 * route factory stamped on it (server/http/route.ts), 405/404 from not-found.ts, or null when
 * nothing classifies it (a route added outside the factory).
 */
export async function routeMethods(root = process.cwd()): Promise<RouteMethod[]> {
  const out: RouteMethod[] = [];
  for (const absolute of routeFiles(path.join(root, "app/api")).sort()) {
    const file = path.relative(root, absolute);
    const outside = OUTSIDE_FACTORY[file];
    const mod: Record<string, unknown> = outside ? {} : await import(pathToFileURL(absolute).href);
    for (const method of METHODS) {
      if (outside) {
        if (method === "GET" || method === "POST") out.push({ file, path: urlPath(file), method, classification: outside });
        continue;
      }
      const handler = mod[method] as { access?: Classification; answers?: 404 | 405 } | undefined;
      if (!handler) continue;
      const classification = handler.access ?? (handler.answers === 405 ? "not-allowed" : handler.answers === 404 ? "not-found" : null);
      out.push({ file, path: urlPath(file), method, classification });
    }
  }
  return out;
}
