// `npm run bench [names…]`: builds the app if needed, then runs bench/<name>.ts for each name in turn
// (default: ingest, rollups and ratelimit). Each benchmark prints its figures and its ratios to a baseline.
import { spawnSync } from "node:child_process";
import { ensureBuild } from "./ensure-build.mjs";

const names = process.argv.slice(2);
ensureBuild();
for (const name of names.length ? names : ["ingest", "rollups", "ratelimit"]) {
  console.log(`\n== bench ${name}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", `bench/${name}.ts`], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
