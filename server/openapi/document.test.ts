import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describeRoute, type RouteDescription } from "../http/route";
import { documentFromDisk } from "./from-disk";
import { METHODS, routeFolders, urlPath, type Method } from "./routes";

const apiDir = path.join(process.cwd(), "app", "api");

/** Route files with no factory handler, and why they are not operations. */
const NOT_OPERATIONS: Record<string, string> = {
  "auth/[...nextauth]": "next-auth's own sign-in handlers",
  "trpc/[trpc]": "the UI's tRPC endpoint (typed by its routers, not REST)",
  "v1/[...path]": "the JSON 404 for unknown /api/v1 paths",
  "v2/[...path]": "the JSON 404 for unknown /api/v2 paths",
  "public/[...path]": "the JSON 404 for unknown Langfuse paths",
};

/** Each route file's methods the factory made, imported as Node imports them. */
async function servedRoutes(): Promise<{ folder: string; method: Method; route: RouteDescription }[]> {
  const out = [];
  for (const folder of routeFolders(apiDir)) {
    if (NOT_OPERATIONS[folder]) continue;
    const module = (await import(pathToFileURL(path.join(apiDir, folder, "route.ts")).href)) as Record<string, unknown>;
    const served = METHODS.flatMap((method) => {
      const route = describeRoute(module[method]);
      return route ? [{ folder, method, route }] : [];
    });
    assert.ok(served.length, `app/api/${folder}/route.ts has no handler made by the route factory (server/http/route.ts)`);
    out.push(...served);
  }
  return out;
}

const documentOnce = documentFromDisk();
type Doc = { paths: Record<string, Record<string, unknown>> };

test("the generated document is valid OpenAPI 3.1", async () => {
  const document = await documentOnce;
  assert.equal(document.openapi, "3.1.0");
  const result = await validate(structuredClone(document) as never);
  assert.ok(result.valid, result.valid ? "" : compileErrors(result));
});

test("every route file under app/api is in the document with each method the factory serves", async () => {
  const { paths } = (await documentOnce) as unknown as Doc;
  const expected = new Map<string, string[]>();
  for (const { folder, method } of await servedRoutes()) {
    const url = urlPath(folder);
    assert.ok(url, `${folder} is a catch-all but serves ${method}`);
    expected.set(url, [...(expected.get(url) ?? []), method.toLowerCase()]);
  }
  assert.ok(expected.size > 100, `only ${expected.size} paths found`);
  for (const [url, methods] of expected)
    assert.deepEqual(Object.keys(paths[url] ?? {}).sort(), methods.sort(), `${url}: the document's methods`);
  assert.deepEqual(Object.keys(paths).sort(), [...expected.keys()].sort());
});

test("every operation says what it answers: a response schema, or the content type and description of what it builds", async () => {
  const missing = (await servedRoutes()).filter(({ route }) => !route.response && !route.answers);
  assert.deepEqual(
    missing.map(({ folder, method }) => `${method} app/api/${folder}`),
    [],
    "declare `response` or `answers` in these route() calls",
  );
});
