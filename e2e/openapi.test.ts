/**
 * GET /openapi.json from the built server is the document the generator makes from the route
 * modules on disk (the bundler found every route), and needs no key.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { documentFromDisk } from "../server/openapi/from-disk";
import { startServer, type RunningServer } from "./harness/server";

describe("GET /openapi.json", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test("is the generated document, every route included, without credentials", async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    const served = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    const expected = (await documentFromDisk()) as typeof served;
    assert.equal(served.openapi, "3.1.0");
    assert.deepEqual(Object.keys(served.paths).sort(), Object.keys(expected.paths).sort());
    assert.deepEqual(served, JSON.parse(JSON.stringify(expected)));
  });

  test("the reference page is served under the pages' CSP", async () => {
    const response = await fetch(`${server.url}/docs/api`);
    assert.equal(response.status, 200);
    const csp = response.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    assert.doesNotMatch(csp, /unsafe-eval/);
  });
});
