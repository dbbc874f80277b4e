import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { withTestDatabases } from "../db/test-databases";
import { sql } from "../db/sql";
import { withAuditActor } from "./actor";
import { purgeAuditLog } from "./purge";
import { recordAudit, summary } from "./record";
import { listAuditLogs } from "./service";

withTestDatabases("audit log", (open) => {
  const workspaceId = randomUUID();

  const seed = async () => {
    const db = await open();
    await db.sql.query(sql`INSERT INTO workspaces (id, name, audit_retention_days) VALUES (${workspaceId}::uuid, 'audited', 30)
                           ON CONFLICT (id) DO NOTHING`);
    return db;
  };

  test("an entry carries the request's actor and address, and summaries never hold secrets", async () => {
    const db = await seed();
    await withAuditActor({ kind: "api_key", id: "key-1", ip: "203.0.113.9" }, () =>
      recordAudit(db.sql.prisma, {
        workspaceId,
        action: "api_key.create",
        target: { type: "api_key", id: "k" },
        after: { key: "tl_us_secret", nested: { password: "p", headers: { authorization: "x" } }, description: "ci" },
      }),
    );
    const page = await listAuditLogs(db.sql, workspaceId, { limit: 10 });
    const entry = page.items.find((e) => e.action === "api_key.create")!;
    assert.deepEqual(entry.actor, { kind: "api_key", id: "key-1", label: null });
    assert.equal(entry.ip, "203.0.113.9");
    assert.deepEqual(entry.after, { key: "[redacted]", nested: { password: "[redacted]", headers: "[redacted]" }, description: "ci" });
    assert.doesNotMatch(JSON.stringify(page), /tl_us_secret/);
    assert.deepEqual(summary({ api_key: "a", token_hash: "b", name: "n" }), { api_key: "[redacted]", token_hash: "[redacted]", name: "n" });
  });

  test("the database refuses UPDATE, DELETE and TRUNCATE, even with the purge flag set by hand", async () => {
    const db = await seed();
    await recordAudit(db.sql.prisma, { workspaceId, action: "rule.create" });
    await assert.rejects(
      db.sql.query(sql`UPDATE audit_log SET action = 'forged' WHERE workspace_id = ${workspaceId}::uuid`),
      /append-only: UPDATE/,
    );
    await assert.rejects(db.sql.query(sql`DELETE FROM audit_log WHERE workspace_id = ${workspaceId}::uuid`), /append-only: DELETE/);
    await assert.rejects(db.sql.query(sql`TRUNCATE audit_log`), /append-only: TRUNCATE/);
    await assert.rejects(
      db.sql.tx(async (tx) => {
        await tx.query(sql`SELECT set_config('tracelight.audit_purge', 'on', true)`);
        await tx.query(sql`DELETE FROM audit_log WHERE workspace_id = ${workspaceId}::uuid`);
      }),
      /append-only: DELETE/,
    );
    await assert.rejects(db.sql.prisma.auditLog.updateMany({ where: { workspaceId }, data: { action: "x" } }), /append-only/);
    const [{ n }] = await db.sql.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE workspace_id = ${workspaceId}::uuid`,
    );
    assert.ok(n >= 1);
  });

  test("the retention purge deletes only entries older than the workspace's retention", async () => {
    const db = await seed();
    const old = randomUUID();
    const recent = randomUUID();
    await db.sql.query(sql`INSERT INTO audit_log (id, at, workspace_id, actor_kind, action)
      VALUES (${old}::uuid, now() - interval '31 days', ${workspaceId}::uuid, 'system', 'old.one'),
             (${recent}::uuid, now() - interval '29 days', ${workspaceId}::uuid, 'system', 'recent.one')`);
    assert.ok((await purgeAuditLog(db.sql)) >= 1);
    const ids = (await db.sql.query<{ id: string }>(sql`SELECT id::text FROM audit_log WHERE workspace_id = ${workspaceId}::uuid`)).map(
      (r) => r.id,
    );
    assert.ok(!ids.includes(old), "the 31-day-old entry went");
    assert.ok(ids.includes(recent), "the 29-day-old entry stays");
  });

  test("filters by action family, actor and time, and pages by cursor without gaps or repeats", async () => {
    const db = await seed();
    for (let i = 0; i < 7; i++)
      await withAuditActor({ kind: "user", id: i % 2 ? "ada" : "bo", ip: null }, () =>
        recordAudit(db.sql.prisma, {
          workspaceId,
          action: i % 3 ? "webhook.create" : "webhook.delete",
          target: { type: "w", id: String(i) },
        }),
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAuditLogs(db.sql, workspaceId, { action: "webhook.*", limit: 3, cursor });
      seen.push(...page.items.map((e) => e.target_id!));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, ["6", "5", "4", "3", "2", "1", "0"]);
    const ada = await listAuditLogs(db.sql, workspaceId, { actor: "ada", action: "webhook.create", limit: 100 });
    assert.deepEqual(
      ada.items.map((e) => e.target_id),
      ["5", "1"],
    );
    const future = await listAuditLogs(db.sql, workspaceId, { start_time: new Date(Date.now() + 60_000), limit: 100 });
    assert.equal(future.items.length, 0);
  });
});
