import { readdirSync } from "node:fs";
import path from "node:path";
import { describeRoute, type RouteDescription } from "../http/route";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** One operation: a method of an app/api route file that the route factory made. */
export interface Operation {
  /** The route file's folder under app/api, as found on disk: `v1/runs/[runId]`. */
  folder: string;
  /** The URL path in OpenAPI's form: `/api/v1/runs/{runId}`. */
  path: string;
  method: Method;
  route: RouteDescription;
}

/** A route module's exports, as `import()` gives them. */
export type RouteModule = Record<string, unknown>;

/**
 * The folders under app/api that hold a `route.ts`, found on disk, so a route added anywhere is in
 * the document with no list to keep (`apiDir` is app/api of the checkout).
 */
export function routeFolders(apiDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name === "route.ts") found.push(path.relative(apiDir, dir).split(path.sep).join("/"));
    }
  };
  walk(apiDir);
  return found.sort();
}

/** `v1/runs/[runId]` → `/api/v1/runs/{runId}`; null for a catch-all (`[...path]`), which is no one path. */
export function urlPath(folder: string): string | null {
  const segments = folder.split("/");
  if (segments.some((s) => s.startsWith("[..."))) return null;
  return "/api/" + segments.map((s) => (s.startsWith("[") ? `{${s.slice(1, -1)}}` : s)).join("/");
}

/** Every operation of the given route modules (handlers the factory did not make are left out). */
export async function operations(folders: string[], load: (folder: string) => Promise<RouteModule>): Promise<Operation[]> {
  const out: Operation[] = [];
  for (const folder of folders) {
    const url = urlPath(folder);
    if (!url) continue;
    const module = await load(folder);
    for (const method of METHODS) {
      const route = describeRoute(module[method]);
      if (route) out.push({ folder, path: url, method, route });
    }
  }
  return out;
}
