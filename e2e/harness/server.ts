import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { scratchDatabase as createScratchDatabase } from "../../server/db/scratch";

export interface RunningServer {
  url: string;
  apiKey: string;
  workspaceId: string;
  /** The server process (scripts/serve.mjs: Next.js in this one process). */
  pid: number;
  /** Everything the server printed, for assertions and for debugging a failure. */
  output: () => string;
  /** Its PostgreSQL database (none when embedded). */
  databaseUrl?: string;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * How long a server may take to print its key and answer `/info`: E2E_START_TIMEOUT_MS, default 90 s
 * (raise it on a heavily loaded machine, where a cold start can take longer).
 */
function startTimeoutMs(): number {
  const raw = process.env.E2E_START_TIMEOUT_MS;
  if (raw === undefined || raw === "") return 90_000;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`E2E_START_TIMEOUT_MS must be a positive number of milliseconds, not "${raw}"`);
  return ms;
}

/** A fresh database on the PostgreSQL server named by E2E_DATABASE_URL, dropped by `stop()`. */
export const scratchDatabase = (url: string) => createScratchDatabase(url, "tl_e2e");

/**
 * Starts the built server (`scripts/serve.mjs`) on a free port with a fresh database: embedded PGlite in a
 * temporary directory, or a scratch database on E2E_DATABASE_URL. Rate limits are off unless
 * `env.RATE_LIMITS` turns them on. Resolves once the first workspace's key has been printed.
 */
export async function startServer(
  options: {
    env?: Record<string, string>;
    databaseUrl?: string | null;
    /** Restart on a database that already has its first workspace (set env.DATA_DIR): no key is printed, these are used. */
    existing?: { apiKey: string; workspaceId: string };
    /**
     * Leave the first workspace waiting for its owner, as `npm start` does (the first sign-up joins
     * it). By default an owner account signs up at once, so test sign-ups get workspaces of their own.
     */
    unclaimed?: boolean;
    /** Listen here (default: a free port), so a caller can reach the server before it is ready. */
    port?: number;
    /** Serve the build in this directory (another checkout, for an A/B of two builds); default: this one. */
    dir?: string;
  } = {},
): Promise<RunningServer> {
  const timeoutMs = startTimeoutMs();
  const port = options.port ?? (await freePort());
  const dataDir = await mkdtemp(path.join(tmpdir(), "tracelight-e2e-"));
  // env.DATABASE_URL is used as it is (a test's own server, kept across restarts); else a scratch database.
  const pgUrl =
    options.env?.DATABASE_URL || options.databaseUrl === null ? undefined : (options.databaseUrl ?? process.env.E2E_DATABASE_URL);
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    DATA_DIR: dataDir,
    RATE_LIMITS: "off",
    NODE_ENV: "production",
    ...options.env,
  };
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  if (scratch) env.DATABASE_URL = scratch.url;
  // A deployment on PostgreSQL must be given its secrets (the embedded one generates its own).
  if (env.DATABASE_URL) for (const name of ["NEXTAUTH_SECRET", "INTERNAL_SECRET"]) env[name] ||= randomBytes(32).toString("base64url");
  const child: ChildProcess = spawn(
    process.execPath,
    [...(process.env.E2E_NODE_ARGS?.split(" ").filter(Boolean) ?? []), ...serverCommand(options.dir, port)],
    {
      cwd: options.dir,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  // A spawn that fails (a missing directory, say) emits `error`, which would otherwise crash the process.
  let spawnError = null as Error | null;
  child.once("error", (error) => (spawnError = error));
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    await scratch?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const key = options.existing?.apiKey ?? /TRACELIGHT_API_KEY=(\S+)/.exec(output)?.[1];
    const workspaceId = options.existing?.workspaceId ?? /TRACELIGHT_WORKSPACE_ID=(\S+)/.exec(output)?.[1];
    if (key && workspaceId) {
      const ready = await fetch(`${url}/info`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) {
        if (!options.existing && !options.unclaimed) await claimFirstWorkspace(url);
        return { url, apiKey: key, workspaceId, pid: child.pid!, output: () => output, databaseUrl: env.DATABASE_URL, stop };
      }
    }
    if (spawnError || child.exitCode !== null || Date.now() > deadline) {
      await stop();
      const why = spawnError
        ? spawnError.message
        : child.exitCode !== null
          ? `exit ${child.exitCode}`
          : `not ready after ${timeoutMs} ms; see E2E_START_TIMEOUT_MS`;
      throw new Error(`Server did not start (${why}):\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** scripts/serve.mjs, or `next start` in a checkout from before it existed. */
function serverCommand(dir: string | undefined, port: number): string[] {
  if (!dir || existsSync(path.join(dir, "scripts/serve.mjs"))) return ["scripts/serve.mjs"];
  return ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"];
}

/** Signs up the owner of the workspace start-up created, as the first person to open the UI would. */
async function claimFirstWorkspace(url: string): Promise<void> {
  const response = await fetch(`${url}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `owner-${process.pid}-${Date.now()}@example.com`, password: "owner-password-1", name: "Owner" }),
  });
  if (response.status !== 201) throw new Error(`The owner could not sign up: ${response.status} ${await response.text()}`);
}
