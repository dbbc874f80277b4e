import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { idParams } from "../core/uuid";
import { database } from "../db/client";
import { resetEnv } from "../env";
import { route } from "./route";

const dataDir = mkdtempSync(path.join(tmpdir(), "tracelight-route-"));
before(() => {
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = dataDir;
  resetEnv();
});
after(async () => {
  await (await database()).close();
  rmSync(dataDir, { recursive: true, force: true });
});

const thing = z.object({ id: z.string(), count: z.number() });
type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
const call = (handler: Handler, params: Record<string, string>) =>
  handler(new Request("http://localhost/things/x"), { params: Promise.resolve(params as never) });

test("the route factory checks path ids and the answer's documented shape", async () => {
  const good = route({
    access: "public",
    params: idParams("thingId"),
    response: thing,
    handler: ({ params }) => ({ id: params.thingId, count: 1 }),
  });
  const id = "00000000-0000-4000-8000-000000000001";
  const ok = await call(good, { thingId: id });
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { id, count: 1 });

  const malformed = await call(good, { thingId: "nope" });
  assert.equal(malformed.status, 404, "a malformed id is a 404, like a missing one");
  assert.match((await malformed.json()).detail, /thingId.*UUID/);

  // A handler whose answer drifted from the schema (here forced past the compiler) is a 500 naming the field.
  const drifted = route({
    access: "public",
    response: thing,
    handler: () => ({ id: "x", count: "1" }) as unknown as z.infer<typeof thing>,
  });
  const answer = await call(drifted, {});
  assert.equal(answer.status, 500);
  assert.match((await answer.json()).detail, /does not match its documented shape.*count/);
});

test("a route taking Langfuse's credentials says how to send them when none came", async () => {
  const langfuse = route({ access: "read", basicAuth: true, handler: () => ({}) });
  const answer = await call(langfuse, {});
  assert.equal(answer.status, 401);
  assert.match((await answer.json()).detail, /Authorization: Basic base64\(public_key:secret_key\)/);
  const plain = await call(route({ access: "read", handler: () => ({}) }), {});
  assert.match((await plain.json()).detail, /x-api-key/);
});
