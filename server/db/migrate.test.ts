import { test } from "node:test";
import assert from "node:assert/strict";
import { openDatabase } from "./client";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listMigrations, migrate } from "./migrate";
import { sql } from "./sql";
import { withTestDatabases } from "./test-databases";

withTestDatabases("migrations", (open) => {
  test("apply once, then are a no-op", async () => {
    const db = await open();
    const all = await listMigrations();
    const second = await migrate(db);
    assert.deepEqual(second, []);
    const rows = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM _prisma_migrations`);
    assert.equal(rows[0].n, all.length);
  });

  test("produce every column the Prisma schema describes", async () => {
    const db = await open();
    const { readdir, readFile } = await import("node:fs/promises");
    const files = (await readdir("prisma/schema")).filter((f) => f.endsWith(".prisma"));
    const schema = (await Promise.all(files.map((f) => readFile(`prisma/schema/${f}`, "utf8")))).join("\n");
    const missing: string[] = [];
    // Relation fields (typed by another model) are Prisma's navigation, not columns.
    const models = new Set([...schema.matchAll(/model (\w+) \{/g)].map((m) => m[1]));
    for (const model of schema.matchAll(/model (\w+) \{([\s\S]*?)\n\}/g)) {
      const table = /@@map\("(\w+)"\)/.exec(model[2])?.[1] ?? model[1];
      const columns = new Set(
        (await db.sql.query<{ column_name: string }>(
          sql`SELECT column_name FROM information_schema.columns WHERE table_name = ${table}`,
        )).map((r) => r.column_name),
      );
      assert.ok(columns.size > 0, `table ${table} exists`);
      for (const line of model[2].split("\n")) {
        const field = /^\s+(\w+)\s+(\w+)(\[\])?\??/.exec(line);
        if (!field || line.trim().startsWith("//") || line.trim().startsWith("@@") || models.has(field[2])) continue;
        const column = /@map\("(\w+)"\)/.exec(line)?.[1] ?? field[1];
        if (!columns.has(column)) missing.push(`${table}.${column}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

test("an embedded database in memory migrates from nothing", async () => {
  const db = await openDatabase({ dataDir: "memory" });
  try {
    assert.ok((await migrate(db)).length > 0);
  } finally {
    await db.close();
  }
});

test("a database refuses to start when an applied migration's file changed", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "tracelight-migrations-"));
  const db = await openDatabase({ dataDir: "memory" });
  try {
    await cp("prisma/migrations", dir, { recursive: true });
    await migrate(db, dir);
    const last = (await listMigrations(dir)).at(-1)!;
    await writeFile(path.join(dir, last.name, "migration.sql"), `${last.text}\n-- edited after it was applied\n`);
    await assert.rejects(migrate(db, dir), new RegExp(`Migration ${last.name} changed after it was applied`));
    await writeFile(path.join(dir, last.name, "migration.sql"), last.text);
    assert.deepEqual(await migrate(db, dir), [], "restored: starts again");
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
});
