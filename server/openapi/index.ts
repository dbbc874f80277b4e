import path from "node:path";
import { SERVICE_VERSION } from "../info";
import { openApiDocument } from "./document";
import { operations, routeFolders, type RouteModule } from "./routes";
import type { JsonSchema } from "./json-schema";

/**
 * The API's OpenAPI document: every route file under app/api, found on disk, loaded with `load`
 * (a bundler's `import()` in the app, Node's in tests and scripts), described by the route factory.
 */
export async function apiDocument(load: (folder: string) => Promise<RouteModule>, root = process.cwd()): Promise<JsonSchema> {
  const folders = routeFolders(path.join(root, "app", "api"));
  return openApiDocument(await operations(folders, load), SERVICE_VERSION);
}
