import { before, test } from "node:test";
import assert from "node:assert/strict";
import { resetEnv } from "../env";
import { withRateLimit } from "./rate-limit";

before(() => {
  process.env.RATE_LIMITS = "on";
  delete process.env.REDIS_URL;
  resetEnv();
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const limitOf = async (path: string, headers: Record<string, string>) => {
  const response = await withRateLimit(new Request(`http://localhost${path}`, { headers }), "10.0.0.1", async () => Response.json({}));
  return response.headers.get("X-RateLimit-Limit");
};

test("Langfuse's Basic secret key counts as the API key on /api/public routes only", async () => {
  const headers = { authorization: basic("pk-lf", "tl_us_secret") };
  const path = "/api/public/ingestion";
  assert.equal(await limitOf(path, headers), await limitOf(path, { "x-api-key": "tl_us_secret" }), "the API key's row");
  assert.notEqual(await limitOf(path, headers), await limitOf(path, {}), "not the anonymous one");
  assert.equal(await limitOf("/info", headers), await limitOf("/info", {}), "elsewhere a Basic login is no key");
});
