// `npm start`: build once if needed, then serve on PORT (default 1984) with the embedded database
// unless DATABASE_URL is set. The first start prints a workspace and API key.
import { spawnSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";

const distDir = process.env.NEXT_DIST_DIR || ".next";
const next = "node_modules/next/dist/bin/next";
if (!existsSync(`${distDir}/BUILD_ID`) || process.argv.includes("--rebuild")) {
  const built = spawnSync(process.execPath, [next, "build"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const port = process.env.PORT || "1984";
const server = spawn(process.execPath, [next, "start", "-p", port], { stdio: "inherit", env: { ...process.env, PORT: port } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
