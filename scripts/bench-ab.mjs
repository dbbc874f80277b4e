// `npm run bench:ab <git-ref> [embedded|postgres|both] [rounds]`: the ingest A/B of this tree against
// another build. The ref is checked out in a worktree under the system's temporary directory (kept,
// so a second A/B against it starts at once), its dependencies installed (hard links to ours when
// the lock files agree), and built; this tree is built anew. Then bench/ab.ts sends the same
// requests to both in interleaved rounds, on the embedded database and on PostgreSQL
// (BENCH_DATABASE_URL, default the local server the tests use).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const [ref, kinds = "both", rounds = "5"] = process.argv.slice(2);
if (!ref) {
  console.error("Usage: npm run bench:ab <git-ref> [embedded|postgres|both] [rounds]");
  process.exit(2);
}
const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).trim();
const sha = git("rev-parse", "--short", `${ref}^{commit}`);
const dir = path.join(tmpdir(), "tracelight-ab", sha);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(dir)) git("worktree", "add", "--detach", dir, sha);
if (!existsSync(path.join(dir, "node_modules"))) {
  const sameLock = readFileSync("package-lock.json", "utf8") === readFileSync(path.join(dir, "package-lock.json"), "utf8");
  if (sameLock) {
    run("cp", ["-al", "node_modules", path.join(dir, "node_modules")]);
    run(process.execPath, ["scripts/prisma-generate.mjs"], { cwd: dir });
  } else run("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir });
}
if (!existsSync(path.join(dir, ".next", "BUILD_ID"))) run(process.execPath, ["node_modules/next/dist/bin/next", "build"], { cwd: dir });
ensureBuild(!process.env.BENCH_AB_REUSE_BUILD);

const pgUrl = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
for (const kind of kinds === "both" ? ["embedded", "postgres"] : [kinds]) {
  console.log(`\n== bench:ab ${sha} on ${kind}`);
  const env = { ...process.env, BENCH_DATABASE_URL: kind === "postgres" ? pgUrl : "" };
  if (kind !== "postgres") delete env.BENCH_DATABASE_URL;
  run(process.execPath, ["--import", "tsx", "bench/ab.ts", dir, rounds], { env });
}
