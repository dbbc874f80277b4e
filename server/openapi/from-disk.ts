import path from "node:path";
import { pathToFileURL } from "node:url";
import { apiDocument } from "./index";

/** The document without Next.js: Node imports each route module (run under tsx). */
export function documentFromDisk(root = process.cwd()) {
  return apiDocument((folder) => import(pathToFileURL(path.join(root, "app", "api", folder, "route.ts")).href), root);
}
