import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";

/**
 * The import graph between server domains (the folders of server/) has no cycle: a domain may use
 * another only if that one does not use it back, directly or through others. Imports are read by
 * TypeScript's own pre-processor; tests are left out (they may reach across domains).
 */
function domainGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  const domainOf = (file: string) =>
    path
      .relative("server", file)
      .split(path.sep)[0]!
      .replace(/\.tsx?$/, "");
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (name === "generated") continue;
      if (statSync(file).isDirectory()) visit(file);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".test.ts")) {
        for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
          if (!fileName.startsWith(".")) continue;
          const target = path.join(path.dirname(file), fileName);
          if (!target.startsWith(`server${path.sep}`)) continue;
          const [from, to] = [domainOf(file), domainOf(target)];
          if (from === to) continue;
          if (!graph.has(from)) graph.set(from, new Map());
          if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${file} imports ${fileName}`);
        }
      }
    }
  };
  visit("server");
  return graph;
}

/** One cycle through `start`, as the list of edges' evidence, or null. */
function cycleFrom(graph: Map<string, Map<string, string>>, start: string): string[] | null {
  const seen = new Set<string>();
  const walk = (node: string, trail: string[]): string[] | null => {
    for (const [next, evidence] of graph.get(node) ?? []) {
      if (next === start) return [...trail, evidence];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...trail, evidence]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, []);
}

test("no import cycle between server domains", () => {
  const graph = domainGraph();
  assert.ok(graph.size > 10, "the graph was read");
  const cycles = [...graph.keys()].map((domain) => cycleFrom(graph, domain)).filter((c): c is string[] => c !== null);
  assert.deepEqual(cycles[0] ?? [], [], "a cycle, edge by edge");
});

test("the shared kernel (server/core) depends on no domain", () => {
  const uses = [...(domainGraph().get("core") ?? new Map<string, string>()).entries()].filter(([to]) => to !== "env");
  assert.deepEqual(uses, []);
});
