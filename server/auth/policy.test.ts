import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { routeMethods } from "../../e2e/harness/routes";
import { ACTIONS, assertMayReviewQueue, mayDo, refusal } from "./policy";
import { policyTable } from "./policy-table";

test("docs/access.md shows the policy's table as it is", () => {
  const doc = readFileSync("docs/access.md", "utf8");
  const block = /<!-- policy-table:start -->\n([\s\S]*?)\n<!-- policy-table:end -->/.exec(doc);
  assert.ok(block, "docs/access.md has the policy-table markers");
  assert.equal(
    block[1],
    policyTable(),
    "regenerate the table with: node --import tsx -e \"console.log(require('./server/auth/policy-table.ts').policyTable())\"",
  );
});

test("the roles: viewers only read, annotators read, leave feedback and review, members write, admins administer", () => {
  assert.deepEqual(
    ACTIONS.filter((a) => mayDo("annotator", a)),
    ["read", "feedback", "review"],
  );
  assert.deepEqual(
    ACTIONS.filter((a) => mayDo("viewer", a)),
    ["read"],
  );
  assert.deepEqual(
    ACTIONS.filter((a) => mayDo("member", a)),
    ["read", "feedback", "review", "write"],
  );
  assert.equal(
    ACTIONS.every((a) => mayDo("admin", a)),
    true,
  );
  assert.match(refusal("viewer", "write"), /^Your role in this workspace is viewer: it can read but not change data\.$/);
  assert.throws(() => assertMayReviewQueue("annotator", "u1", ["u2"]), /not assigned to you/);
  assert.doesNotThrow(() => assertMayReviewQueue("annotator", "u1", ["u1"]));
  assert.doesNotThrow(() => assertMayReviewQueue("member", "u1", []));
  assert.throws(() => assertMayReviewQueue("admin", "u1", ["u2"], true), /only by its assigned reviewers/);
  assert.throws(() => assertMayReviewQueue("admin", undefined, ["u2"], true), /service key/);
  assert.doesNotThrow(() => assertMayReviewQueue("member", "u2", ["u2"], true));
});

test("every method of every API route file has a policy classification", async () => {
  const routes = await routeMethods();
  assert.ok(routes.length > 300, `read ${routes.length} route methods`);
  const unclassified = routes.filter((r) => r.classification === null).map((r) => `${r.method} ${r.path} (${r.file})`);
  assert.deepEqual(unclassified, [], "route methods outside the route factory and the policy");
});
