import { test } from "node:test";
import assert from "node:assert/strict";
import { parseSort, runsSelection } from "./runs-input";
import { paramsFromState, rangeBounds, showsState, stateFromParams, withView } from "./view-state";

test("a view's state goes to the address and back unchanged", () => {
  const state = {
    filter: 'eq(run_type, "llm")',
    search: "refund",
    runType: "llm",
    rootOnly: false,
    sort: { by: "latency" as const, dir: "asc" as const },
    columns: ["name", "latency"],
    range: "7d" as const,
    tab: "threads" as const,
  };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(paramsFromState(state))) if (v !== null) params.set(k, v);
  assert.deepEqual(stateFromParams(params), state);
  assert.ok(showsState(params, state));
  params.set("q", "other");
  assert.ok(!showsState(params, state));
});

test("relative ranges start at a whole minute; custom ranges are from/to; junk is no bound", () => {
  const now = Date.parse("2026-11-28T10:30:45.123Z");
  assert.deepEqual(rangeBounds(new URLSearchParams("range=1h"), now), { startTime: "2026-11-28T09:30:00.000Z" });
  assert.deepEqual(rangeBounds(new URLSearchParams("range=30d"), now), { startTime: "2026-10-29T10:30:00.000Z" });
  assert.deepEqual(rangeBounds(new URLSearchParams("from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z"), now), {
    startTime: "2026-11-01T00:00:00.000Z",
    endTime: "2026-11-02T00:00:00.000Z",
  });
  assert.deepEqual(rangeBounds(new URLSearchParams("range=2w&from=nonsense"), now), { startTime: undefined, endTime: undefined });
});

test("the address with a view shown: its keys set or cleared, the rest kept, `saved` its id", () => {
  const address = new URLSearchParams("run=r1&trace=t1&q=old&cols=name");
  const shown = withView(address, { id: "v1", state: { filter: 'eq(run_type, "llm")', range: "7d", sort: { by: "latency", dir: "asc" } } });
  assert.deepEqual(Object.fromEntries(shown), {
    run: "r1",
    trace: "t1",
    filter: 'eq(run_type, "llm")',
    range: "7d",
    sort: "latency:asc",
    saved: "v1",
  });
  assert.equal(address.get("q"), "old");
});

test("the runs the list reads follow the address: filters, root runs, range and sort", () => {
  const now = Date.parse("2026-11-28T10:30:45.123Z");
  const params = new URLSearchParams("filter=eq(status,%22error%22)&type=llm&root=0&q=refund&range=1h");
  assert.deepEqual(runsSelection("w", "p", params, now), {
    workspaceId: "w",
    projectId: "p",
    filter: 'eq(status,"error")',
    runType: "llm",
    rootOnly: false,
    search: "refund",
    startTime: "2026-11-28T09:30:00.000Z",
    endTime: undefined,
  });
  assert.equal(runsSelection("w", "p", new URLSearchParams(), now).rootOnly, true);
  assert.deepEqual(parseSort("total_cost:desc"), { by: "total_cost", dir: "desc" });
  assert.equal(parseSort("name:asc"), undefined);
  assert.equal(parseSort("latency:sideways"), undefined);
});
