import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { documentFromDisk } from "./from-disk";

/**
 * The langsmith 0.12 client's generated resources (node_modules/langsmith/resources) against our
 * document: every v2 path the client calls that we serve has the client's method, and the request
 * fields agree — each field the client's types require is one we read, and we require no field the
 * client may leave out.
 */
const resources = path.join(process.cwd(), "node_modules", "langsmith", "resources");

interface ClientCall {
  name: string;
  method: string;
  path: string;
  required: string[];
  file: string;
}

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name), suffix) : e.name.endsWith(suffix) ? [path.join(dir, e.name)] : [],
  );
}

/**
 * The top-level fields an exported interface of the .d.ts requires, by interface name: typed without
 * `?`, or typed optional but documented "Required" (the generator marks some body fields optional
 * that the service refuses to go without).
 */
function requiredFields(declarations: string, type: string): string[] {
  const start = new RegExp(`^export interface ${type}( extends [^{]+)? \\{$`, "m").exec(declarations)?.index;
  if (start === undefined) return [];
  const body = declarations.slice(start, declarations.indexOf("\n}\n", start));
  return [...body.matchAll(/(?:\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\n)? {4}(\w+)(\??): /g)]
    .filter(([, doc, , optional]) => !optional || /\bRequired\b|\(required\)/.test(doc ?? ""))
    .map(([, , field]) => field)
    .filter((f) => f !== "Accept");
}

/** Fields the client sends that our routes do not need, and why. */
const IGNORED: Record<string, string> = {
  "POST /api/v2/runs/{}/share session_id": "the run id in the path names the trace; its project follows from it",
  "POST /api/v2/runs/{}/share trace_id": "the run id in the path names the trace",
  "DELETE /api/v2/runs/{}/share session_id": "the root run id in the path names the trace; its project follows from it",
  "GET /api/v2/public/{}/run/{} start_time":
    "the share token and the run id find the run (LangSmith uses start_time to find its partition)",
};

/** Fields we require that the client's types leave optional, and why. */
const DEMANDED: Record<string, string> = {
  "POST /api/v2/threads/query project_id": "threads are kept per project: a query without one is a 400 naming the field, not a guess",
};

/** Each method of the client's resources: HTTP method, path template and the required fields of its params. */
function clientCalls(): ClientCall[] {
  const calls: ClientCall[] = [];
  for (const file of files(resources, ".js")) {
    const source = readFileSync(file, "utf8");
    const declarations = readFileSync(file.replace(/\.js$/, ".d.ts"), "utf8");
    for (const m of source.matchAll(/^ {4}(\w+)\(([^)]*)\) \{\n([\s\S]*?)\n {4}\}/gm)) {
      const [, name, , body] = m;
      const call = /_client\.(get|post|put|patch|delete|getAPIList)\((?:\(0, path_1\.path\) )?[`'](\/[^`']+)[`']/.exec(body);
      if (!call) continue;
      const verb = /method: '(\w+)'/.exec(body)?.[1] ?? (call[1] === "getAPIList" ? "get" : call[1]);
      const signature = new RegExp(`^ {4}${name}\\(([^)]*)\\)`, "m").exec(declarations)?.[1] ?? "";
      const types = [...signature.matchAll(/(?:params|query|body)\??: (\w+Params)/g)].map((t) => t[1]);
      const fromPath = [...call[2].matchAll(/\$\{(\w+)\}/g)].map((p) => p[1]);
      const required = types.flatMap((t) => requiredFields(declarations, t)).filter((f) => !fromPath.includes(f));
      calls.push({ name, method: verb, path: call[2], required, file: path.relative(resources, file) });
    }
  }
  return calls;
}

const shape = (p: string) => p.replace(/^\/v2\//, "/api/v2/").replace(/\$\{\w+\}|\{\w+\}/g, "{}");

type Schema = { properties?: Record<string, unknown>; required?: string[] };
type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

test("the v2 paths the langsmith client calls and we serve take the same methods and required fields", async () => {
  const document = (await documentFromDisk()) as unknown as { paths: Record<string, Record<string, Operation>> };
  const ours = new Map(Object.entries(document.paths).map(([p, ops]) => [shape(p), ops]));
  const v2 = clientCalls().filter((c) => shape(c.path).startsWith("/api/v2/"));
  assert.ok(v2.length > 10, `found ${v2.length} v2 calls in the client`);
  const served = v2.filter((c) => ours.has(shape(c.path)));
  assert.ok(served.length >= 15, `only ${served.length} of the client's v2 calls are paths we serve`);
  const problems: string[] = [];
  for (const call of served) {
    const operation = ours.get(shape(call.path))![call.method];
    const where = `${call.method.toUpperCase()} ${call.path} (${call.file} ${call.name})`;
    if (!operation) {
      problems.push(`${where}: we serve the path but not this method`);
      continue;
    }
    const body = operation.requestBody?.content["application/json"]?.schema ?? {};
    const query = (operation.parameters ?? []).filter((p) => p.in === "query");
    const known = new Set([...Object.keys(body.properties ?? {}), ...query.map((p) => p.name)]);
    const demanded = [...(body.required ?? []), ...query.filter((p) => p.required).map((p) => p.name)];
    const key = `${call.method.toUpperCase()} ${shape(call.path)}`;
    for (const field of call.required)
      if (!known.has(field) && !IGNORED[`${key} ${field}`])
        problems.push(`${where}: the client requires \`${field}\`, which we do not read`);
    for (const field of demanded)
      if (!call.required.includes(field) && !DEMANDED[`${key} ${field}`])
        problems.push(`${where}: we require \`${field}\`, which the client may omit`);
  }
  assert.deepEqual(problems, []);
});
