import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../../auth/workspaces";
import type { Sql } from "../../db/client";
import { sql } from "../../db/sql";
import { withTestDatabases } from "../../db/test-databases";
import { ingestRuns } from "../../ingest/service";
import { queryRuns } from "../query";
import { runQueryBody, runQueryFromWire } from "../schema";

/**
 * Filters find what ingest stores: U+0000, U+E000 and lone surrogates are kept escaped
 * (db/storable), so the values a filter compares with stored text are escaped the same way.
 */
withTestDatabases("filters on text as sent", (open) => {
  test("eq, like, has, search, tags and metadata find names and values holding U+0000 and lone surrogates", async () => {
    const db: Sql = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "nul filters")).id;
    const [nul, surrogate, plain] = [randomUUID(), randomUUID(), randomUUID()];
    const start = "2026-01-01T00:00:00Z";
    await ingestRuns(db, ws, {
      post: [
        {
          id: nul,
          name: "nul\u0000name",
          session_name: "nul",
          start_time: start,
          tags: ["t\u0000g"],
          extra: { metadata: { k: "v\u0000" } },
        },
        { id: surrogate, name: "lone\ud800 \ue000", session_name: "nul", start_time: start },
        { id: plain, name: "nul name", session_name: "nul", start_time: start },
      ],
    });
    const [{ project_id: project }] = await db.query<{ project_id: string }>(
      sql`SELECT project_id::text FROM runs WHERE id = ${nul}::uuid`,
    );
    const ids = async (filter: string) =>
      (await queryRuns(db, ws, runQueryFromWire(runQueryBody.parse({ session: [project], filter })))).runs.map((r) => r.id).sort();

    assert.deepEqual(await ids('eq(name, "nul\\u0000name")'), [nul]);
    assert.deepEqual(await ids('neq(name, "nul\\u0000name")'), [plain, surrogate].sort());
    assert.deepEqual(await ids('in(name, ["nul\\u0000name", "nul name"])'), [nul, plain].sort());
    assert.deepEqual(await ids('like(name, "nul\\u0000%")'), [nul]);
    assert.deepEqual(await ids('has(name, "\\u0000")'), [nul]);
    assert.deepEqual(await ids('search("l\\u0000n")'), [nul]);
    assert.deepEqual(await ids('eq(name, "lone\\ud800 \\ue000")'), [surrogate]);
    assert.deepEqual(await ids('has(tags, "t\\u0000g")'), [nul]);
    // The filter's own escape gives JSON text whose own \u0000 escape is the NUL.
    assert.deepEqual(await ids('has(metadata, \'{"k": "v\\\\u0000"}\')'), [nul]);
  });
});
