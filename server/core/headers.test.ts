import { test } from "node:test";
import assert from "node:assert/strict";
import { AppError } from "./errors";
import { credentialHeader, limiterKey } from "./headers";

test("a credential header repeated with one value is that value; different values are a 401", () => {
  const repeated = new Headers([
    ["X-API-Key", "tl_us_abc"],
    ["x-api-key", "tl_us_abc"],
  ]);
  assert.equal(repeated.get("x-api-key"), "tl_us_abc, tl_us_abc", "what fetch's Headers makes of two lines");
  assert.equal(credentialHeader(repeated, "x-api-key"), "tl_us_abc");
  assert.equal(limiterKey(repeated, "x-api-key"), "tl_us_abc");
  assert.equal(credentialHeader(new Headers({ "x-api-key": " tl_us_abc " }), "x-api-key"), "tl_us_abc");
  assert.equal(credentialHeader(new Headers({ "x-api-key": "" }), "x-api-key"), null);
  assert.equal(credentialHeader(new Headers(), "x-tenant-id"), null);

  const different = new Headers([
    ["x-api-key", "tl_us_abc"],
    ["x-api-key", "tl_us_xyz"],
  ]);
  assert.throws(
    () => credentialHeader(different, "x-api-key"),
    (e) => e instanceof AppError && e.status === 401 && /x-api-key header was sent 2 times/.test(e.detail),
  );
  assert.equal(limiterKey(different, "x-api-key"), "tl_us_abc,tl_us_xyz", "counted apart from either key");
});
