import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { appendFile, chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { runStatement } from "./scratch";

const run = promisify(execFile);

export interface ReplicatedPostgres {
  primaryUrl: string;
  replicaUrl: string;
  /** Holds the replica's replay (WAL still arrives): it falls behind the primary until `resume`. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  stop(): Promise<void>;
}

/** PostgreSQL's own tools (initdb, pg_ctl, pg_basebackup), or undefined where they are not installed. */
export function postgresTools(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, "bin")).find((bin) => existsSync(path.join(bin, "initdb")));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * A private PostgreSQL primary and a real streaming replica of it (`pg_basebackup -R`), each on a
 * free port in a temporary directory, for tests of replica reads. The shared cluster on 5432 is
 * never touched. PostgreSQL refuses to run as root, so as root the tools run as `postgres`.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = postgresTools();
  if (!bin) throw new Error("PostgreSQL's server tools (initdb, pg_ctl, pg_basebackup) are not installed.");
  const asRoot = process.getuid?.() === 0;
  const tool = (name: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", path.join(bin, name), ...args]) : run(path.join(bin, name), args);

  const directory = await mkdtemp(path.join(tmpdir(), "tracelight-replica-"));
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(directory, Number(stdout), Number(gid));
  }
  const primary = path.join(directory, "primary");
  const replica = path.join(directory, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const settings = (port: number) =>
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${directory}'`,
      "wal_level = replica",
      "max_wal_senders = 4",
      "hot_standby = on",
      "fsync = off",
      "shared_buffers = 32MB",
      "",
    ].join("\n");
  const started: string[] = [];
  const stop = async () => {
    for (const dataDir of started.reverse()) await tool("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    // initdb's default pg_hba.conf trusts local and 127.0.0.1 connections, replication included.
    await tool("initdb", ["-D", primary, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    await appendFile(path.join(primary, "postgresql.conf"), settings(primaryPort));
    await tool("pg_ctl", ["-D", primary, "-l", path.join(directory, "primary.log"), "-w", "start"]);
    started.push(primary);
    await tool("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-U",
      "postgres",
      "-D",
      replica,
      "-R",
      "-X",
      "stream",
      "-c",
      "fast",
    ]);
    await tool("pg_ctl", ["-D", replica, "-l", path.join(directory, "replica.log"), "-o", `-p ${replicaPort}`, "-w", "start"]);
    started.push(replica);
  } catch (error) {
    await stop();
    throw error;
  }
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl,
    pauseReplay: () => runStatement(replicaUrl, "SELECT pg_wal_replay_pause()"),
    resumeReplay: () => runStatement(replicaUrl, "SELECT pg_wal_replay_resume()"),
    stop,
  };
}
