import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { createFeedback } from "../feedback/service";
import { feedbackCreate } from "../feedback/schema";
import { storeProject, storeRun } from "../feedback/test-runs";
import { downloadShared, parseFormat } from "./download";
import { queryFromRunsSegment } from "./public-routes";
import { sharedRunTree, sharedRuns } from "./public-runs";
import { readShare, resolveShare, share, shareRuns, unshare, unshareRuns } from "./service";

const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;

withTestDatabases("sharing", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let root: string;
  let child: string;
  let grandchild: string;
  let sibling: string;
  test("setup: a trace root → child → grandchild, and a sibling of child", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "sharing tests")).id;
    other = (await createWorkspace(db.prisma, "other")).id;
    const project = await storeProject(db, ws);
    root = await storeRun(db, ws, project, { name: "root", startTime: "2024-06-01T10:00:00.000Z" });
    const [r] = await db.query<{ dotted_order: string }>(sql`SELECT dotted_order FROM runs WHERE id = ${root}`);
    child = randomUUID();
    grandchild = randomUUID();
    sibling = randomUUID();
    const add = async (id: string, parent: string, parentOrder: string, name: string, second: string) => {
      const order = `${parentOrder}.20240601T1000${second}000000Z${id}`;
      await storeRun(db, ws, project, { id, traceId: root, parentRunId: parent, name });
      await db.query(sql`UPDATE runs SET dotted_order = ${order} WHERE id = ${id}`);
      return order;
    };
    const childOrder = await add(child, root, r.dotted_order, "child", "01");
    await add(grandchild, child, childOrder, "grandchild", "02");
    await add(sibling, root, r.dotted_order, "sibling", "03");
    await createFeedback(db, ws, feedbackCreate.parse({ run_id: child, key: "good", score: 1 }));
  });

  test("share, read, share again (same link), resolve, revoke", async () => {
    assert.equal(await readShare(db, ws, "run", root), null);
    const { share_token } = await share(db, ws, "run", root);
    assert.match(share_token, /^[0-9a-f-]{36}$/);
    assert.deepEqual(await share(db, ws, "run", root), { run_id: root, share_token });
    assert.deepEqual(await readShare(db, ws, "run", root), { run_id: root, share_token });
    const [stored] = await db.query<{ token_hash: string; token_sealed: string }>(
      sql`SELECT token_hash, token_sealed FROM shares WHERE resource_id = ${root}`,
    );
    assert.ok(!stored.token_hash.includes(share_token) && !stored.token_sealed.includes(share_token), "the token is not stored in clear");
    assert.deepEqual(await resolveShare(db, share_token, "run"), { kind: "run", workspaceId: ws, resourceId: root });
    await assert.rejects(resolveShare(db, share_token, "dataset"), status(404));

    await unshare(db, ws, "run", root);
    await unshare(db, ws, "run", root);
    await assert.rejects(resolveShare(db, share_token), status(404), "a revoked link is gone");
    assert.equal(await readShare(db, ws, "run", root), null);
    const again = await share(db, ws, "run", root);
    assert.notEqual(again.share_token, share_token, "sharing after a revoke makes a new link");
  });

  test("sharing any run of a trace shares the whole trace, with one link", async () => {
    const fromRoot = await share(db, ws, "run", root);
    const fromChild = await share(db, ws, "run", grandchild);
    assert.equal(fromChild.share_token, fromRoot.share_token);
    assert.equal(fromChild.run_id, grandchild);
    assert.deepEqual(await resolveShare(db, fromChild.share_token, "run"), { kind: "run", workspaceId: ws, resourceId: root });
    await unshare(db, ws, "run", child);
    assert.equal(await readShare(db, ws, "run", root), null, "unsharing any run of the trace revokes the link");
  });

  test("another workspace's run, or no run at all, is a 404", async () => {
    await assert.rejects(share(db, other, "run", root), status(404));
    await assert.rejects(readShare(db, other, "run", root), status(404));
    await assert.rejects(unshare(db, other, "run", root), status(404));
    await assert.rejects(share(db, ws, "run", "not-a-uuid"), status(404));
    await assert.rejects(resolveShare(db, randomUUID()), status(404));
  });

  test("the public view is the shared run and its descendants, nested, without workspace ids", async () => {
    const tree = await sharedRunTree(db, ws, root);
    assert.equal(tree.name, "root");
    assert.deepEqual(
      tree.child_runs.map((c) => c.name),
      ["child", "sibling"],
    );
    assert.deepEqual(
      tree.child_runs[0].child_runs.map((c) => c.name),
      ["grandchild"],
    );
    assert.deepEqual(tree.child_runs[0].feedback_stats, { good: { n: 1, avg: 1, stdev: 0, values: {} } });
    assert.ok(!JSON.stringify(tree).includes(ws), "no workspace id leaks");
    assert.deepEqual(
      (await sharedRuns(db, ws, root, [sibling])).map((r) => r.name),
      ["sibling"],
    );
  });

  test("download as json, jsonl and csv with an attachment disposition", async () => {
    const shared = { kind: "run" as const, workspaceId: ws, resourceId: root };
    const json = await downloadShared(db, shared, "json");
    assert.match(json.headers.get("content-disposition")!, new RegExp(`^attachment; filename="trace-${root}.json"$`));
    assert.equal((await json.json()).child_runs.length, 2);
    const lines = (await (await downloadShared(db, shared, "jsonl")).text()).trim().split("\n");
    assert.equal(lines.length, 4);
    const csv = (await (await downloadShared(db, shared, "csv")).text()).trim().split("\r\n");
    assert.equal(csv[0].split(",")[0], "id");
    assert.equal(csv.length, 5);
    assert.ok(csv[1].includes('"{""q"":1}"'), "JSON cells are quoted");
    assert.throws(() => parseFormat("xml"), status(400));
  });

  test("several runs at once: one link per trace, in the order given; a run the workspace lacks is a 404; unsharing revokes them", async () => {
    const links = await shareRuns(db, ws, [child, root, sibling]);
    assert.deepEqual(
      links.map((l) => l.run_id),
      [child, root, sibling],
    );
    assert.equal(new Set(links.map((l) => l.share_token)).size, 1, "runs of one trace share its link");
    await assert.rejects(shareRuns(db, other, [root]), status(404));
    await unshareRuns(db, ws, [grandchild]);
    await assert.rejects(resolveShare(db, links[0]!.share_token), status(404));
  });
});

test("the JS SDK's '?'-less runs path is read as a query", () => {
  assert.deepEqual(queryFromRunsSegment("runsshare_token=abc&id=1&id=2"), { share_token: "abc", id: ["1", "2"] });
  assert.deepEqual(queryFromRunsSegment("runs"), {});
  assert.throws(() => queryFromRunsSegment("secrets"), status(404));
});
