import { test } from "node:test";
import assert from "node:assert/strict";
import { openDatabase } from "./client";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
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
    const schema = await readSchema();
    const missing: string[] = [];
    // Relation fields (typed by another model) are Prisma's navigation, not columns.
    const models = new Set([...schema.matchAll(/model (\w+) \{/g)].map((m) => m[1]));
    for (const model of schema.matchAll(/model (\w+) \{([\s\S]*?)\n\}/g)) {
      const table = /@@map\("(\w+)"\)/.exec(model[2])?.[1] ?? model[1];
      const columns = new Set(
        (
          await db.sql.query<{ column_name: string }>(sql`SELECT column_name FROM information_schema.columns WHERE table_name = ${table}`)
        ).map((r) => r.column_name),
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

  test("produce exactly the foreign keys, and their delete rules, that the Prisma schema declares", async () => {
    const db = await open();
    const inDatabase = await db.sql.query<{ fk: string }>(sql`
      SELECT c.conrelid::regclass::text || '(' || array_to_string(array(
               SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i), ', ')
        || ') -> ' || c.confrelid::regclass::text || '(' || array_to_string(array(
               SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i), ', ')
        || ') ON DELETE ' || CASE c.confdeltype WHEN 'c' THEN 'Cascade' WHEN 'n' THEN 'SetNull' WHEN 'r' THEN 'Restrict' WHEN 'd' THEN 'SetDefault' ELSE 'NoAction' END AS fk
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND c.conparentid = 0 AND n.nspname = current_schema()`);
    assert.deepEqual(inDatabase.map((r) => r.fk).sort(), declaredForeignKeys(await readSchema()).sort());
  });
});

async function readSchema(): Promise<string> {
  const files = (await readdir("prisma/schema")).filter((f) => f.endsWith(".prisma"));
  return (await Promise.all(files.map((f) => readFile(`prisma/schema/${f}`, "utf8")))).join("\n");
}

/**
 * The foreign keys the schema's relations declare, written as the database test writes them:
 * `table(columns) -> table(columns) ON DELETE Action`. Every relation must name its onDelete.
 */
function declaredForeignKeys(schema: string): string[] {
  const models = new Map<string, { table: string; columns: Map<string, string> }>();
  const blocks = [...schema.matchAll(/model (\w+) \{([\s\S]*?)\n\}/g)];
  for (const [, name, body] of blocks) {
    const columns = new Map<string, string>();
    for (const line of body!.split("\n")) {
      const field = /^\s+(\w+)\s+\w+/.exec(line);
      if (field && !line.trim().startsWith("@@")) columns.set(field[1]!, /@map\("(\w+)"\)/.exec(line)?.[1] ?? field[1]!);
    }
    models.set(name!, { table: /@@map\("(\w+)"\)/.exec(body!)?.[1] ?? name!, columns });
  }
  const keys: string[] = [];
  for (const [, name, body] of blocks) {
    for (const line of body!.split("\n")) {
      const relation = /^\s+\w+\s+(\w+)\??\s+@relation\(([^)]*)\)/.exec(line);
      if (!relation) continue;
      const [, target, args] = relation;
      const list = (key: string) =>
        /\[([^\]]*)\]/
          .exec(new RegExp(`${key}:\\s*(\\[[^\\]]*\\])`).exec(args!)?.[1] ?? "")?.[1]
          ?.split(",")
          .map((f) => f.trim()) ?? [];
      const onDelete = /onDelete:\s*(\w+)/.exec(args!)?.[1];
      assert.ok(onDelete, `${name}: the relation to ${target} names its onDelete`);
      const [from, to] = [models.get(name!)!, models.get(target!)!];
      keys.push(
        `${from.table}(${list("fields")
          .map((f) => from.columns.get(f))
          .join(", ")}) -> ${to.table}(${list("references")
          .map((f) => to.columns.get(f))
          .join(", ")}) ON DELETE ${onDelete}`,
      );
    }
  }
  return keys;
}

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
