import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { applicableRows, normalizePath, rowsMatchingShape, type RateLimitRequest } from "./match";
import { LIMIT_TABLE } from "./table";

const RUN_ID = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
const ip = "203.0.113.9";
const key = (method: string, path: string): RateLimitRequest => ({ method, path, ip, apiKey: "lsv2_sk_test" });
const user = (method: string, path: string): RateLimitRequest => ({ method, path, ip, userId: "user-1" });
const anon = (method: string, path: string): RateLimitRequest => ({ method, path, ip });
const ids = (req: RateLimitRequest) =>
  applicableRows(req)
    .map((a) => a.row.id)
    .sort();

describe("path normalization", () => {
  test("strips /api/v1 and /v1 prefixes, trailing and doubled slashes, query and fragment", () => {
    assert.equal(normalizePath("/api/v1/runs/multipart/"), "/runs/multipart");
    assert.equal(normalizePath("/runs/multipart"), "/runs/multipart");
    assert.equal(normalizePath("/v1/beacon"), "/beacon");
    assert.equal(normalizePath("/api/v1/v1/beacon"), "/beacon");
    assert.equal(normalizePath("//runs//query?x=1#y"), "/runs/query");
    assert.equal(normalizePath("/otel/v1/traces"), "/otel/v1/traces");
    assert.equal(normalizePath("/api/v1"), "/");
    assert.equal(normalizePath("/api/v10/x"), "/api/v10/x");
  });
});

describe("which rows a request shape matches", () => {
  const cases: Array<[RateLimitRequest, string[]]> = [
    [key("POST", "/runs/multipart"), ["runs-multipart"]],
    [key("POST", "/api/v1/runs/multipart/"), ["runs-multipart"]],
    [key("GET", "/runs/multipart"), ["default-api-key"]],
    [key("GET", `/runs/${RUN_ID}`), ["run-lookup"]],
    [key("GET", `/api/v1/runs/${RUN_ID}/`), ["run-lookup"]],
    [key("GET", `/runs/${RUN_ID.toUpperCase()}`), ["run-lookup"]],
    [key("GET", "/runs/not-a-uuid"), ["default-api-key"]],
    [key("GET", `/runs/${RUN_ID}/share`), ["default-api-key"]],
    [key("PATCH", `/runs/${RUN_ID}`), ["runs-update"]],
    [key("PATCH", `/api/v1/runs/${RUN_ID}`), ["runs-update"]],
    [key("PATCH", "/runs/rules/abc"), ["runs-update"]],
    [key("PATCH", "/reruns/abc"), ["default-api-key"]],
    [key("POST", "/runs"), ["runs-create"]],
    [key("POST", "/runs/"), ["runs-create"]],
    [key("GET", "/runs"), ["default-api-key"]],
    [key("POST", "/runs/batch"), ["runs-batch"]],
    [key("POST", "/runs/query"), ["runs-query-api-key"]],
    [key("GET", "/runs/query"), ["default-api-key"]],
    [key("POST", "/runs/stats"), ["runs-stats"]],
    [key("GET", "/api/v1/runs/stats"), ["runs-stats"]],
    [key("POST", "/otel/v1/traces"), ["otel-traces"]],
    [key("POST", "/api/v1/otel/v1/traces"), ["otel-traces"]],
    [key("POST", "/charts"), ["charts-api-key"]],
    [key("POST", "/sessions/abc/charts"), ["charts-api-key"]],
    [key("POST", "/charts/sets/abc/render"), ["charts-api-key"]],
    [key("GET", "/charts"), ["default-api-key"]],
    [key("POST", "/feedback"), ["feedback-create"]],
    [key("GET", "/feedback"), ["default-api-key"]],
    [key("GET", "/examples"), ["examples"]],
    [key("GET", "/datasets/abc/examples"), ["examples"]],
    [key("POST", "/examples"), ["default-api-key"]],
    [key("DELETE", "/sessions/abc"), ["deletion-api-key"]],
    [key("DELETE", "/sessions"), ["deletion-api-key"]],
    [key("GET", "/sessions/abc"), ["default-api-key"]],
    [key("POST", "/runs/rules/abc/trigger"), ["deletion-api-key"]],
    [key("GET", "/api/v1/runs/rules/abc/trigger/"), ["deletion-api-key"]],
    [key("POST", "/runs/rules/abc/triggers"), ["default-api-key"]],
    [key("GET", "/repos"), ["repos-api-key"]],
    [key("POST", "/repos/me/prompt"), ["repos-api-key"]],
    [key("GET", "/commits/me/prompt"), ["commits-api-key"]],
    [key("POST", "/generate"), ["generate-api-key"]],
    [key("GET", "/auth"), ["auth-api-key"]],
    [key("GET", "/authors"), ["default-api-key"]],
    [anon("GET", "/info"), ["high-throughput-public"]],
    [anon("GET", "/api/v1/info/"), ["high-throughput-public"]],
    [anon("OPTIONS", "/runs/batch"), ["high-throughput-public"]],
    [anon("options", "/anything/at/all"), ["high-throughput-public"]],
    [anon("POST", "/v1/metadata/submit"), ["high-throughput-public"]],
    [anon("POST", "/api/v1/metadata/submit"), ["high-throughput-public"]],
    [anon("POST", "/some/prefix/v1/metadata/submit"), ["high-throughput-public"]],
    [anon("POST", "/v1/beacon"), ["beacon"]],
    [anon("POST", "/api/v1/v1/beacon"), ["beacon"]],
    [anon("GET", "/public/download/tok"), ["public-download"]],
    [anon("GET", "/public/tok/run"), ["catch-all"]],
    [anon("GET", "/datasets"), ["catch-all"]],
  ];
  for (const [req, expected] of cases) {
    const who = req.apiKey ? "key" : req.userId ? "user" : "anonymous";
    test(`${req.method} ${req.path} (${who}) → ${expected.join(", ")}`, () => assert.deepEqual(ids(req), expected));
  }

  test("rows are matched on shape before identity: an anonymous POST /runs/query matches both query rows but neither applies", () => {
    const shapes = rowsMatchingShape(anon("POST", "/runs/query")).map((r) => r.id);
    assert.deepEqual(shapes, ["runs-query-api-key", "runs-query-user", "default-api-key", "default-user", "catch-all"]);
    assert.deepEqual(ids(anon("POST", "/runs/query")), ["catch-all"]);
  });
});

describe("the rule for several matching rows", () => {
  test("every matching specific row applies: key and user on POST /runs/query count both query rows, no defaults", () => {
    assert.deepEqual(ids({ ...key("POST", "/runs/query"), userId: "user-1" }), ["runs-query-api-key", "runs-query-user"]);
  });

  test("a default row applies when no specific row of its identity kind matched", () => {
    // The IP row of /info is specific, but not of the api_key kind, so the API-key default still counts.
    assert.deepEqual(ids(key("GET", "/info")), ["default-api-key", "high-throughput-public"]);
    assert.deepEqual(ids(user("OPTIONS", "/runs")), ["default-user", "high-throughput-public"]);
    assert.deepEqual(ids({ ...key("POST", "/runs/batch"), userId: "user-1" }), ["default-user", "runs-batch"]);
  });

  test("rows whose identity the request does not carry do not apply", () => {
    assert.deepEqual(ids(user("POST", "/runs/batch")), ["default-user"]);
    assert.deepEqual(ids(user("POST", "/runs/query")), ["runs-query-user"]);
    assert.deepEqual(ids(user("GET", `/runs/${RUN_ID}`)), ["default-user"]);
  });

  test("the catch-all applies only without identity, and not where a specific IP row covers the path", () => {
    assert.deepEqual(ids(anon("GET", "/sessions")), ["catch-all"]);
    assert.deepEqual(ids(key("GET", "/sessions")), ["default-api-key"]);
    assert.deepEqual(ids(user("GET", "/sessions")), ["default-user"]);
    assert.deepEqual(ids(anon("GET", "/public/download/tok")), ["public-download"]);
  });

  test("blank identity headers count as absent", () => {
    assert.deepEqual(ids({ method: "GET", path: "/sessions", ip, apiKey: "  ", userId: "" }), ["catch-all"]);
  });

  test("every request has at least one row that counts it", () => {
    for (const req of [anon("GET", "/"), key("HEAD", "/x"), user("PUT", "/y"), anon("TRACE", "/api/v1")]) assert.ok(ids(req).length > 0);
  });
});

describe("the table", () => {
  test("has the contract's 29 rows with unique ids", () => {
    assert.equal(LIMIT_TABLE.length, 29);
    assert.equal(new Set(LIMIT_TABLE.map((r) => r.id)).size, 29);
  });

  test("the regions differ only for /commits and /runs/stats", () => {
    const differing = LIMIT_TABLE.filter((r) => JSON.stringify(r.limits.us) !== JSON.stringify(r.limits.eu)).map((r) => r.id);
    assert.deepEqual(differing, ["commits-api-key", "commits-user", "runs-stats"]);
  });
});
