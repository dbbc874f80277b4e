import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { withTestDatabases } from "../db/test-databases";
import { ingestRuns } from "../ingest/service";
import { runSelection, selectionFromWire } from "./schema";
import type { RunSelection } from "./selection";
import { scannedRuns, sortedRuns, type SortKey } from "./sorted";
import { indexedRuns } from "./sorted-index";

const stamp = (ms: number, id: string) =>
  `${new Date(ms).toISOString().replace(/[-:.]/g, "").slice(0, 15)}${String(ms % 1000).padStart(3, "0")}000Z${id}`;

/** A chain root with LLM children of the given total tokens: the root shows their sum. */
function trace(name: string, start: number, childTokens: number[], session = "sorted") {
  const rootId = randomUUID();
  const rootOrder = stamp(start, rootId);
  const at = (ms: number) => new Date(ms).toISOString();
  return [
    { id: rootId, trace_id: rootId, dotted_order: rootOrder, name, run_type: "chain", session_name: session, start_time: at(start) },
    ...childTokens.map((tokens, i) => {
      const id = randomUUID();
      return {
        id,
        trace_id: rootId,
        parent_run_id: rootId,
        dotted_order: `${rootOrder}.${stamp(start + 1 + i, id)}`,
        name: `${name}-llm-${tokens}`,
        run_type: "llm",
        session_name: session,
        start_time: at(start + 1 + i),
        end_time: at(start + 5 + i),
        outputs: { usage_metadata: { input_tokens: tokens - 10, output_tokens: 10, total_tokens: tokens, total_cost: tokens / 400 } },
      };
    }),
  ].map((run) => ({ ...run, inputs: {} }));
}

withTestDatabases("the runs table sorted by a measure", (open) => {
  test("by tokens: a root run by its trace's total, the others by their own, both directions", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const start = Date.parse("2026-05-01T10:00:00Z");
    await ingestRuns(db, ws, { post: [...trace("a", start, [100, 60]), ...trace("b", start + 1000, [70, 40])] });
    const names = async (dir: "asc" | "desc") =>
      (await sortedRuns(db, ws, selectionFromWire(runSelection.parse({})), { by: "total_tokens", dir }, 0, 10, ["name"])).runs.map(
        (r) => r.name,
      );
    assert.deepEqual(await names("desc"), ["a", "b", "a-llm-100", "b-llm-70", "a-llm-60", "b-llm-40"]);
    assert.deepEqual(await names("asc"), ["b-llm-40", "a-llm-60", "b-llm-70", "a-llm-100", "b", "a"]);
    const page = await sortedRuns(
      db,
      ws,
      selectionFromWire(runSelection.parse({ is_root: true })),
      { by: "total_tokens", dir: "desc" },
      1,
      1,
      ["name"],
    );
    assert.deepEqual(
      page.runs.map((r) => r.name),
      ["b"],
    );
    assert.equal(page.next, null);
  });
});

/**
 * Traces whose roots show their trace's totals, their own (a chain that reported usage, no LLM run),
 * or nothing; equal totals; a root written after its children, a child completed by a later patch,
 * a single LLM run as its own trace, and another project's bigger runs.
 */
async function seedProject(db: Parameters<typeof ingestRuns>[0], ws: string): Promise<string> {
  const start = Date.parse("2026-05-02T10:00:00Z");
  const at = (ms: number) => new Date(ms).toISOString();
  const own = randomUUID();
  const ownOrder = stamp(start + 3000, own);
  const tool = randomUUID();
  const bare = randomUUID();
  const bareOrder = stamp(start + 4000, bare);
  const bareTool = randomUUID();
  const single = randomUUID();
  const usage = (tokens: number) => ({
    usage_metadata: { input_tokens: tokens - 5, output_tokens: 5, total_tokens: tokens, total_cost: tokens / 400 },
  });
  await ingestRuns(db, ws, {
    post: [
      ...trace("a", start, [100, 60]),
      ...trace("b", start + 1000, [70, 90]),
      ...trace("c", start + 2000, [40]),
      {
        id: own,
        trace_id: own,
        dotted_order: ownOrder,
        name: "own",
        run_type: "chain",
        session_name: "sorted",
        start_time: at(start + 3000),
        outputs: usage(500),
      },
      {
        id: tool,
        trace_id: own,
        parent_run_id: own,
        dotted_order: `${ownOrder}.${stamp(start + 3001, tool)}`,
        name: "own-tool",
        run_type: "tool",
        session_name: "sorted",
        start_time: at(start + 3001),
      },
      {
        id: bare,
        trace_id: bare,
        dotted_order: bareOrder,
        name: "bare",
        run_type: "chain",
        session_name: "sorted",
        start_time: at(start + 4000),
      },
      {
        id: bareTool,
        trace_id: bare,
        parent_run_id: bare,
        dotted_order: `${bareOrder}.${stamp(start + 4001, bareTool)}`,
        name: "bare-tool",
        run_type: "tool",
        session_name: "sorted",
        start_time: at(start + 4001),
      },
      {
        id: single,
        trace_id: single,
        dotted_order: stamp(start + 5000, single),
        name: "single",
        run_type: "llm",
        session_name: "sorted",
        start_time: at(start + 5000),
        outputs: usage(60),
      },
      ...trace("other-project", start + 6000, [1000, 900], "elsewhere"),
    ].map((run) => ({ inputs: {}, ...run })),
  });
  // The children first, their root in a later request.
  const late = trace("late", start + 7000, [60, 60]);
  await ingestRuns(db, ws, { post: late.slice(1) });
  await ingestRuns(db, ws, { post: late.slice(0, 1) });
  // A child posted without outputs and completed by a patch: its trace is summed again from its runs.
  const [patchedRoot, patchedChild] = trace("patched", start + 8000, [160]);
  const { outputs, end_time, ...posted } = patchedChild as typeof patchedChild & { outputs: unknown; end_time: string };
  await ingestRuns(db, ws, { post: [patchedRoot, posted] });
  await ingestRuns(db, ws, { patch: [{ id: posted.id, trace_id: posted.trace_id, dotted_order: posted.dotted_order, outputs, end_time }] });
  const [root] = await scannedRuns(db, ws, { isRoot: true, filter: 'eq(name, "a")' }, { by: "total_tokens", dir: "desc" }, 0, 1);
  return root.project_id;
}

withTestDatabases("the runs table sorted through the indexes", (open) => {
  const ws = randomUUID();
  let db: Awaited<ReturnType<typeof open>>["sql"];
  let projectId = "";
  const setUp = async () => {
    if (projectId) return;
    db = (await open()).sql;
    projectId = await seedProject(db, ws);
  };
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  const selections = (): [string, RunSelection][] => [
    ["every run", { projectIds: [projectId] }],
    ["root runs", { projectIds: [projectId], isRoot: true }],
    ["other runs", { projectIds: [projectId], isRoot: false }],
    ["a filter", { projectIds: [projectId], filter: 'neq(name, "b")' }],
    ["a time range", { projectIds: [projectId], startTime: "2026-05-02T10:00:01Z", endTime: "2026-05-02T10:00:07.5Z" }],
  ];
  const sorts: { by: SortKey; dir: "asc" | "desc" }[] = [
    { by: "total_tokens", dir: "desc" },
    { by: "total_tokens", dir: "asc" },
    { by: "total_cost", dir: "desc" },
    { by: "total_cost", dir: "asc" },
  ];

  test("roots by the value they show: their trace's total, else their own; the other project left out", async () => {
    await setUp();
    const page = await sortedRuns(db, ws, { projectIds: [projectId], isRoot: true }, { by: "total_tokens", dir: "desc" }, 0, 20, [
      "name",
      "total_tokens",
    ]);
    assert.deepEqual(
      page.runs.map((r) => r.total_tokens),
      // A trace without LLM runs shows 0 tokens and sorts with the runs without the measure, last.
      [500, 160, 160, 160, 120, 60, 40, 0],
    );
    assert.equal(page.runs[0].name, "own");
    assert.deepEqual(new Set(page.runs.slice(1, 4).map((r) => r.name)), new Set(["a", "b", "patched"]));
    assert.deepEqual(
      page.runs.slice(4).map((r) => r.name),
      ["late", "single", "c", "bare"],
    );
  });

  test("every prefix the indexes answer is the scan's, with bounds falling inside runs of equal value", async () => {
    await setUp();
    let answered = 0;
    for (const [label, selection] of selections())
      for (const sort of sorts) {
        const scanned = ids(await scannedRuns(db, ws, selection, sort, 0, 1000));
        const before = answered;
        for (let want = 1; want <= scanned.length + 1; want++)
          for (const reads of [[1, 2], [3], [5, 9], [1000]]) {
            const indexed = await indexedRuns(
              db,
              ws,
              selection as RunSelection & { projectIds: [string] },
              sort.by as "total_tokens",
              sort.dir,
              want,
              reads,
            );
            if (indexed === null) continue;
            answered++;
            assert.deepEqual(ids(indexed), scanned.slice(0, want), `${label}, ${sort.by} ${sort.dir}, ${want} runs, reads ${reads}`);
          }
        assert.ok(answered > before, `${label}, ${sort.by} ${sort.dir}: the indexes answered no prefix`);
      }
    assert.ok(answered > 100, `the indexes answered ${answered} prefixes`);
  });

  test("pages of any size follow one another without overlap, runs without the measure last, as the scan orders them", async () => {
    await setUp();
    for (const [label, selection] of selections())
      for (const sort of sorts) {
        const scanned = ids(await scannedRuns(db, ws, selection, sort, 0, 1000));
        for (const limit of [1, 2, 3, 7]) {
          const seen: string[] = [];
          let offset: number | null = 0;
          while (offset !== null) {
            const page: Awaited<ReturnType<typeof sortedRuns>> = await sortedRuns(db, ws, selection, sort, offset, limit, ["name"]);
            seen.push(...page.runs.map((r) => r.id));
            offset = page.next;
          }
          assert.deepEqual(seen, scanned, `${label}, ${sort.by} ${sort.dir}, pages of ${limit}`);
          assert.equal(new Set(seen).size, seen.length);
        }
      }
  });
});
