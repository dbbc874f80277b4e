// `prisma generate` tries to download the native schema engine before it runs, and these
// machines are offline. Generate never executes that engine, so any existing executable
// satisfies the check (see BUILD-ENVIRONMENT.md).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync("prisma/schema")) process.exit(0);
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ||= process.execPath;
execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "generate", "--schema", "prisma/schema"], { stdio: "inherit", env });
