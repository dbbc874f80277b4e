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

/**
 * Each table has one owner: the server folder whose README's "**Owns:**" sentence names it (the
 * tables are those `prisma/schema` maps). Code in any other folder reaches it through the owner's
 * functions — no SQL naming it (`FROM`, `JOIN`, `INTO`, `UPDATE`, … in a string or template) and no
 * Prisma model accessor of it (`db.prisma.run.findMany`, `tx.run.count`). Tests and their seed
 * helpers (`test-*.ts`) may reach anywhere.
 */
function prismaTables(): { tables: Set<string>; accessors: Map<string, string> } {
  const tables = new Set<string>();
  const accessors = new Map<string, string>();
  for (const name of readdirSync("prisma/schema")) {
    const text = readFileSync(path.join("prisma/schema", name), "utf8");
    for (const [block, model] of text.matchAll(/^model (\w+) \{[\s\S]*?^\}/gm)) {
      const table = /@@map\("(\w+)"\)/.exec(block)?.[1] ?? model!;
      tables.add(table);
      accessors.set(model![0]!.toLowerCase() + model!.slice(1), table);
    }
  }
  return { tables, accessors };
}

/** table → the folder whose README's Owns sentence names it; a table claimed twice is reported. */
function tableOwners(tables: Set<string>): { owners: Map<string, string>; claimedTwice: string[] } {
  const owners = new Map<string, string>();
  const claimedTwice: string[] = [];
  for (const folder of readdirSync("server")) {
    let readme: string;
    try {
      readme = readFileSync(path.join("server", folder, "README.md"), "utf8");
    } catch {
      continue;
    }
    const start = readme.indexOf("**Owns:**");
    if (start < 0) continue;
    const paragraph = readme.slice(start).split("\n\n")[0]!;
    // The first sentence: the first ". " outside a code span (later sentences name what it only uses).
    const end = paragraph.replace(/`[^`]*`/g, (span) => "x".repeat(span.length)).search(/\.(\s|$)/);
    for (const [, name] of paragraph.slice(0, end < 0 ? undefined : end).matchAll(/`([a-z_]+)`/g)) {
      if (!tables.has(name!)) continue;
      if (owners.has(name!)) claimedTwice.push(`${name}: ${owners.get(name!)} and ${folder}`);
      owners.set(name!, folder);
    }
  }
  return { owners, claimedTwice };
}

const PRISMA_OPERATIONS = new Set(
  "findMany findUnique findFirst findUniqueOrThrow findFirstOrThrow create createMany createManyAndReturn update updateMany updateManyAndReturn upsert delete deleteMany count aggregate groupBy".split(
    " ",
  ),
);

/** Every "file: table (how)" where code outside a table's owner names it. */
function foreignTableUses(): string[] {
  const { tables, accessors } = prismaTables();
  const { owners } = tableOwners(tables);
  const names = [...owners.keys()].sort((a, b) => b.length - a.length).join("|");
  const sqlNaming = new RegExp(
    `\\b(?:from|join|into|update|table|truncate|analyze)\\s+(?:only\\s+)?(?:public\\.)?"?(${names})"?(?!\\w)`,
    "gi",
  );
  const uses = new Set<string>();
  const visitFile = (file: string) => {
    const folder = path.relative("server", file).split(path.sep)[0]!;
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
        for (const [, name] of node.text.matchAll(sqlNaming)) {
          const table = name!.toLowerCase();
          if (owners.get(table) !== folder) uses.add(`${file}: ${table} (SQL)`);
        }
      }
      if (ts.isPropertyAccessExpression(node) && PRISMA_OPERATIONS.has(node.name.text) && ts.isPropertyAccessExpression(node.expression)) {
        const accessor = node.expression.name.text;
        const table = accessors.get(accessor);
        if (table && owners.has(table) && owners.get(table) !== folder) uses.add(`${file}: ${table} (.${accessor})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (name === "generated") continue;
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".test.ts") && !name.startsWith("test-")) visitFile(file);
    }
  };
  walk("server");
  return [...uses].sort();
}

/**
 * Uses of another folder's table that predate the check. This list only shrinks: move the query
 * behind a function of the owner (a set-based one where speed needs it) and delete its line.
 */
const FOREIGN_TABLE_USES_TO_REMOVE: string[] = [
  // runs: feedback may not call runs (runs reads feedback's statistics, and domains have no
  // cycles). Its batch upsert inside ingest's transaction joins runs for each feedback's trace and
  // project; a presigned token checks its run; a trace's feedback is found through its runs.
  "server/feedback/store.ts: runs (SQL)",
  "server/feedback/tokens.ts: runs (.run)",
  "server/feedback/trace.ts: runs (SQL)",
  // Other tables: reads of projects, feedback, workspaces and users from the domains that show
  // them, and joins across two owners in one statement.
  "server/blobs/sweep.ts: example_versions (SQL)",
  "server/charts/series.ts: feedback (SQL)",
  "server/charts/series.ts: projects (SQL)",
  "server/datasets/examples.ts: attachments (SQL)",
  "server/datasets/runs.ts: attachments (SQL)",
  "server/evaluators/evaluate.ts: run_rules (.runRule)",
  "server/evaluators/record.ts: run_rule_logs (.runRuleLog)",
  "server/evaluators/service.ts: run_rules (.runRule)",
  "server/evaluators/service.ts: run_rules (SQL)",
  "server/feedback/service.ts: projects (.project)",
  "server/feedback/store.ts: projects (SQL)",
  "server/generate/service.ts: model_connections (.modelConnection)",
  "server/ingest/errors-log.ts: projects (SQL)",
  "server/ingest/projects.ts: projects (SQL)",
  "server/langfuse/read.ts: feedback (.feedback)",
  "server/langfuse/read.ts: projects (.project)",
  "server/otel/export.ts: projects (SQL)",
  "server/prompts/access.ts: workspaces (.workspace)",
  "server/prompts/access.ts: workspaces (SQL)",
  "server/prompts/settings.ts: workspaces (.workspace)",
  "server/review/feedback.ts: memberships (SQL)",
  "server/review/feedback.ts: users (SQL)",
  "server/review/queues/progress.ts: users (.user)",
  "server/review/queues/service.ts: projects (.project)",
  "server/review/queues/submit.ts: feedback (.feedback)",
  "server/rules/backfill.ts: evaluations (.evaluation)",
  "server/rules/match.ts: projects (SQL)",
  "server/rules/service.ts: evaluators (.evaluator)",
  "server/rules/store.ts: projects (.project)",
  "server/runs/filter/pairs.ts: feedback (SQL)",
  "server/runs/partitions.ts: projects (SQL)",
  "server/runs/query-v2.ts: projects (.project)",
  "server/runs/retention.ts: annotation_queue_runs (SQL)",
  "server/runs/retention.ts: example_versions (SQL)",
  "server/runs/retention.ts: feedback (SQL)",
  "server/runs/retention.ts: projects (.project)",
  "server/runs/rollups/measures.ts: feedback (SQL)",
  "server/runs/stats.ts: feedback (SQL)",
  "server/runs/threads.ts: feedback (SQL)",
  "server/sessions/service.ts: attachments (SQL)",
  "server/sessions/service.ts: chart_sets (SQL)",
  "server/sessions/service.ts: feedback (SQL)",
  "server/sessions/stats.ts: feedback (SQL)",
  "server/sharing/service.ts: datasets (SQL)",
  // Written in parallel with this check (alerts, spend limits, the audit log, saved views, the Users
  // page, thread turns, queue reviewers); each to move behind its owner's functions.
  "server/alerts/metric.ts: feedback (SQL)",
  "server/alerts/metric.ts: runs (SQL)",
  "server/alerts/notify.ts: projects (.project)",
  "server/alerts/service.ts: evaluators (.evaluator)",
  "server/alerts/service.ts: projects (.project)",
  "server/audit/service.ts: api_keys (.apiKey)",
  "server/audit/service.ts: users (.user)",
  "server/audit/service.ts: workspaces (.workspace)",
  "server/review/feedback.ts: runs (SQL)",
  "server/review/queues/reviewers.ts: memberships (.membership)",
  "server/runs/users.ts: feedback (SQL)",
  "server/spend/limits.ts: evaluations (.evaluation)",
  "server/spend/limits.ts: evaluators (.evaluator)",
  "server/spend/limits.ts: projects (.project)",
  "server/spend/limits.ts: runs (.run)",
  "server/views/service.ts: projects (.project)",
];

test("every table has exactly one owner, named in a folder README's Owns line", () => {
  const { tables } = prismaTables();
  assert.ok(tables.size > 40, `read ${tables.size} tables from prisma/schema`);
  const { owners, claimedTwice } = tableOwners(tables);
  assert.deepEqual(claimedTwice, [], "one owner per table");
  assert.deepEqual(
    [...tables].filter((t) => !owners.has(t)),
    [],
    "name each table in its owner's README: **Owns:** `table`, …",
  );
});

test("only a table's owner queries it", () => {
  const uses = foreignTableUses();
  const known = new Set(FOREIGN_TABLE_USES_TO_REMOVE.map((line) => line.replaceAll("/", path.sep)));
  assert.deepEqual(
    uses.filter((u) => !known.has(u)),
    [],
    "call a function of the table's owner instead (or have the owner expose the set-based read you need)",
  );
  assert.deepEqual(
    [...known].filter((k) => !uses.includes(k)),
    [],
    "gone: delete these lines from FOREIGN_TABLE_USES_TO_REMOVE",
  );
});
