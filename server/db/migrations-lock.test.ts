// A migration that has shipped is never edited: databases that applied it would refuse to start
// (server/db/migrate.ts compares checksums), and those that did not would get a different schema.
// prisma/migrations/checksums.json records each one's SHA-256 (`npm run migrations:lock` adds new ones).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { listMigrations } from "./migrate";

const dir = path.resolve(import.meta.dirname, "..", "..", "prisma", "migrations");

test("no recorded migration has been edited, and every migration is recorded", async () => {
  const recorded: Record<string, string> = JSON.parse(readFileSync(path.join(dir, "checksums.json"), "utf8"));
  const migrations = await listMigrations(dir);
  assert.ok(migrations.length > 30, `read ${migrations.length} migrations`);
  assert.deepEqual(
    migrations.filter((m) => m.name in recorded && recorded[m.name] !== m.checksum).map((m) => m.name),
    [],
    "these migrations changed after they were recorded: restore them and write a new migration instead",
  );
  assert.deepEqual(
    migrations.filter((m) => !(m.name in recorded)).map((m) => m.name),
    [],
    "new migrations: record them with `npm run migrations:lock`",
  );
  const names = new Set(migrations.map((m) => m.name));
  assert.deepEqual(
    Object.keys(recorded).filter((name) => !names.has(name)),
    [],
    "recorded migrations whose folder is gone",
  );
});
