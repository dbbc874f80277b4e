import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { sql } from "./sql";
import { withTestDatabases } from "./test-databases";

withTestDatabases("Sql.transaction: Prisma Client and set-based SQL in one transaction", (open) => {
  const workspace = async () => {
    const db = await open();
    const id = randomUUID();
    await db.prisma.workspace.create({ data: { id, name: `w-${id}` } });
    return { db, id };
  };
  const datasetsNamed = async (name: string) => (await open()).prisma.dataset.count({ where: { name } });

  test("each sees the other's uncommitted writes, and both commit", async () => {
    const { db, id: workspaceId } = await workspace();
    const name = `d-${randomUUID()}`;
    const seen = await db.sql.transaction(async (t) => {
      const dataset = await t.prisma.dataset.create({ data: { id: randomUUID(), workspaceId, name } });
      const [row] = await t.query<{ name: string }>(sql`SELECT name FROM datasets WHERE id = ${dataset.id}`);
      await t.query(sql`UPDATE datasets SET description = 'from SQL' WHERE id = ${dataset.id}`);
      const reread = await t.prisma.dataset.findUniqueOrThrow({ where: { id: dataset.id } });
      const [raw] = await t.prisma.$queryRaw<{ description: string }[]>`SELECT description FROM datasets WHERE id = ${dataset.id}::uuid`;
      assert.equal(raw?.description, "from SQL", "Prisma's raw queries run in the transaction too");
      // A nested transaction (Prisma's or the executor's) joins this one.
      await t.prisma.$transaction(async (inner) => inner.dataset.update({ where: { id: dataset.id }, data: { dataType: "chat" } }));
      await t.transaction(async (inner) => inner.query(sql`UPDATE datasets SET extra = '{"nested": true}' WHERE id = ${dataset.id}`));
      return { sqlSawPrisma: row?.name, prismaSawSql: reread.description };
    });
    assert.deepEqual(seen, { sqlSawPrisma: name, prismaSawSql: "from SQL" });
    const stored = await db.prisma.dataset.findFirstOrThrow({ where: { name } });
    assert.equal(stored.dataType, "chat");
    assert.deepEqual(stored.extra, { nested: true });
  });

  test("a failure rolls back what both wrote", async () => {
    const { db, id: workspaceId } = await workspace();
    const name = `d-${randomUUID()}`;
    await assert.rejects(
      db.sql.transaction(async (t) => {
        await t.prisma.dataset.create({ data: { id: randomUUID(), workspaceId, name } });
        await t.query(sql`INSERT INTO datasets (id, workspace_id, name) VALUES (${randomUUID()}, ${workspaceId}, ${`${name}-sql`})`);
        throw new Error("the use case failed");
      }),
      /the use case failed/,
    );
    assert.equal(await datasetsNamed(name), 0);
    assert.equal(await datasetsNamed(`${name}-sql`), 0);
  });

  test("concurrent transactions each keep their own connection", async () => {
    const { db, id: workspaceId } = await workspace();
    const names = Array.from({ length: 4 }, () => `d-${randomUUID()}`);
    const results = await Promise.allSettled(
      names.map((name, i) =>
        db.sql.transaction(async (t) => {
          await t.prisma.dataset.create({ data: { id: randomUUID(), workspaceId, name } });
          const [{ n }] = await t.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM datasets WHERE name = ${name}`);
          assert.equal(n, 1, "the executor sees its own transaction's row");
          if (i % 2) throw new Error("odd ones fail");
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "rejected", "fulfilled", "rejected"],
    );
    assert.deepEqual(await Promise.all(names.map(datasetsNamed)), [1, 0, 1, 0]);
  });
});
