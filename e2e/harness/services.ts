import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./server";

const PG_BIN = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"].find((dir) =>
  existsSync(`${dir}/pg_ctl`),
);

/** Why a private PostgreSQL cannot be started here, or false when it can. */
export const noPostgres: string | false = PG_BIN ? false : "no PostgreSQL server binaries (pg_ctl) installed";
export const noRedis: string | false = spawnSync("redis-server", ["--version"]).status === 0 ? false : "no redis-server installed";

/** PostgreSQL refuses to run as root: as root, its commands run as the postgres user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

export interface PrivatePostgres {
  url: string;
  /** Stops the server (fast shutdown: connections are cut). */
  stop(): void;
  start(): void;
  destroy(): void;
}

/** A PostgreSQL cluster of its own on a free port, for tests that stop and start it. */
export async function startPostgres(): Promise<PrivatePostgres> {
  if (!PG_BIN) throw new Error(String(noPostgres));
  const dir = mkdtempSync(path.join(tmpdir(), "tl-pg-"));
  chmodSync(dir, 0o777);
  const data = path.join(dir, "data");
  const port = await freePort();
  const run = (command: string, args: string[]) => {
    const [cmd, argv] = asPostgres(`${PG_BIN}/${command}`, args);
    execFileSync(cmd, argv, { stdio: "pipe" });
  };
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-w", "-t", "60", "-l", path.join(dir, "log"), "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  kill(): void;
}

/** A redis-server of its own on a free port, without persistence. */
export async function startRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  for (let i = 0; i < 50; i++) {
    if (
      spawnSync("redis-cli", ["-p", String(port), "ping"])
        .stdout?.toString()
        .includes("PONG")
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `redis://127.0.0.1:${port}`, kill: () => void child.kill("SIGKILL") };
}
