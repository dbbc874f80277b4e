import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Database } from "./client";
import { sql } from "./sql";

const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
const LOCK_ID = 7_271_984;

/** Prisma's own bookkeeping table, so `prisma migrate status` agrees where the engine exists. */
const BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
);`;

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<{ name: string; text: string; checksum: string }[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, text, checksum: createHash("sha256").update(text).digest("hex") };
    }),
  );
}

/** The migrations whose file no longer matches what was applied: a changed migration is never re-run silently. */
export function changedMigrations(files: { name: string; checksum: string }[], applied: Map<string, string>): string[] {
  return files.filter((m) => applied.has(m.name) && applied.get(m.name) !== m.checksum).map((m) => m.name);
}

/**
 * Applies every migration not yet recorded, in name order, each in its own transaction. Refuses
 * (throws, so the server does not start) when an applied migration's file has changed since.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const applied: string[] = [];
  await db.execScript(`${BOOKKEEPING} SELECT pg_advisory_lock(${LOCK_ID});`);
  try {
    const done = new Map(
      (
        await db.sql.query<{ migration_name: string; checksum: string }>(
          sql`SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
      ).map((r) => [r.migration_name, r.checksum]),
    );
    const files = await listMigrations(dir);
    const changed = changedMigrations(files, done);
    if (changed.length) {
      throw new Error(
        `Migration ${changed.join(", ")} changed after it was applied to this database (its checksum differs). ` +
          "Restore the file as it was and add the change as a new migration.",
      );
    }
    for (const m of files) {
      if (done.has(m.name)) continue;
      await db
        .execScript(
          `BEGIN;\n${m.text}\n;\nINSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
        VALUES ('${randomUUID()}', '${m.checksum}', now(), '${m.name.replace(/'/g, "")}', 1);\nCOMMIT;`,
        )
        .catch(async (error) => {
          await db.execScript("ROLLBACK;").catch(() => undefined);
          throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`);
        });
      applied.push(m.name);
    }
  } finally {
    await db.execScript(`SELECT pg_advisory_unlock(${LOCK_ID});`);
  }
  return applied;
}
