import { test } from "node:test";
import assert from "node:assert/strict";
import { csvCell, runsCsv } from "./export";

test("CSV cells: quoted when needed, JSON for objects, formulas never left to run", () => {
  assert.equal(csvCell("plain"), "plain");
  assert.equal(csvCell('say "hi", then\nleave'), '"say ""hi"", then\nleave"');
  assert.equal(csvCell({ a: 1 }), '"{""a"":1}"');
  assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
  assert.equal(csvCell("-1+2"), "'-1+2");
  assert.equal(csvCell(null), "");
  const csv = runsCsv([{ id: "r1", name: "agent", inputs: { q: "hi" }, outputs: null, tags: ["a"] }]);
  assert.equal(
    csv.split("\r\n")[0],
    "id,trace_id,name,run_type,status,start_time,end_time,latency,total_tokens,total_cost,error,inputs,outputs,tags",
  );
  assert.match(csv.split("\r\n")[1]!, /^r1,,agent,.*"\{""q"":""hi""\}",,"\[""a""\]"$/);
});
