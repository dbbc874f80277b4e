import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/**
 * Creates a new embedded database (initdb) in a child process that exits when it is done. Run in
 * the server, initdb's WebAssembly instance and buffers held about 450 MB at once, and a process
 * keeps its peak: the server would stay near 900 MB resident for its whole life.
 */
export async function initializeDataDir(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const script = `import("@electric-sql/pglite").then(async ({ PGlite }) => { const db = new PGlite(${JSON.stringify(dataDir)}); await db.waitReady; await db.close(); })`;
  await promisify(execFile)(process.execPath, ["-e", script]);
}
