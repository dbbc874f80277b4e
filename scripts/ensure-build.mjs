// Builds the app once when its production build is missing (or when asked with --rebuild).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export function ensureBuild(rebuild = false) {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (existsSync(`${distDir}/BUILD_ID`) && !rebuild) return;
  const built = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
