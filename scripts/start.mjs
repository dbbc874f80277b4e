// `npm start`: build once if needed, then serve on PORT (default 1984) with the embedded database
// unless DATABASE_URL is set. The first start prints a workspace and API key.
import { spawn } from "node:child_process";
import { ensureBuild } from "./ensure-build.mjs";

ensureBuild(process.argv.includes("--rebuild"));
const port = process.env.PORT || "1984";
const server = spawn(process.execPath, ["scripts/serve.mjs"], { stdio: "inherit", env: { ...process.env, PORT: port } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
