// No dead exports: every name a module under server/ or app/ exports is used — imported by another
// file (a test counts) or used in its own. An export nothing uses is dead code that `noUnusedLocals`
// cannot see; delete it. Files are parsed, not type-checked, so the check takes seconds:
// imports, re-exports, `import type`, `typeof import("…")` and dynamic imports are read; a namespace
// import (`import * as x`), `export *` or a dynamic `import()` of a module counts as using all of it.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "generated" || name.startsWith(".")) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    // Declaration files (`.d.ts`, `.d.mts` beside a plain .mjs) describe another file's exports.
    return SOURCE.test(name) && !/\.d\.[mc]?ts$/.test(name) ? [full] : [];
  });
}

/** Files whose exports a framework or a runner reads: Next.js's route and page modules, the root config files. */
const FRAMEWORK_ENTRY =
  /^app\/(.*\/)?(route|page|layout|loading|error|not-found|template|default|global-error|opengraph-image|icon|sitemap|robots|manifest)\.tsx?$/;

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  const candidates = [base, ...[".ts", ".tsx", ".mts", ".mjs", ".js"].map((e) => base + e), base.replace(/\.js$/, ".ts")];
  candidates.push(...["index.ts", "index.tsx"].map((i) => path.join(base, i)));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

interface Module {
  exported: Map<string, number>; // name → line
  mentions: Map<string, number>; // identifier → how often the file names it
  used: Map<string, Set<string>>; // imported module → names (`*` for all)
}

function read(file: string): Module {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const exported = new Map<string, number>();
  const used = new Map<string, Set<string>>();
  const mentions = new Map<string, number>();
  const use = (specifier: string, name: string) => {
    const target = resolve(file, specifier);
    if (!target) return;
    if (!used.has(target)) used.set(target, new Set());
    used.get(target)!.add(name);
  };
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const isExported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const isDefault = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node)) mentions.set(node.text, (mentions.get(node.text) ?? 0) + 1);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (!clause)
        use(from, "*"); // import "./side-effect"
      else {
        if (clause.name) use(from, "default");
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) use(from, "*");
        if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) use(from, (e.propertyName ?? e.name).text);
      }
    } else if (ts.isExportDeclaration(node)) {
      const from = node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : null;
      if (!node.exportClause) {
        if (from) use(from, "*");
      } else if (ts.isNamedExports(node.exportClause)) {
        for (const e of node.exportClause.elements) {
          if (from) use(from, (e.propertyName ?? e.name).text);
          exported.set(e.name.text, line(e));
        }
      }
    } else if (ts.isExportAssignment(node)) {
      exported.set("default", line(node));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) use(arg.text, "*");
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      use(
        node.argument.literal.text,
        node.qualifier ? (ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText(source)) : "*",
      );
    } else if (isExported(node)) {
      if (isDefault(node)) exported.set("default", line(node));
      else if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) exported.set(d.name.text, line(d));
      } else {
        const name = (node as ts.DeclarationStatement).name;
        if (name && ts.isIdentifier(name)) exported.set(name.text, line(node));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { exported, mentions, used };
}

test("every export of server/ and app/ is used somewhere", () => {
  const all = [
    ...["server", "app", "e2e", "bench", "scripts", "types"]
      .filter((d) => existsSync(path.join(root, d)))
      .flatMap((d) => files(path.join(root, d))),
    ...readdirSync(root)
      .filter((n) => SOURCE.test(n))
      .map((n) => path.join(root, n)),
  ];
  const modules = new Map(all.map((f) => [f, read(f)]));
  const usedNames = new Map<string, Set<string>>();
  for (const { used } of modules.values()) {
    for (const [target, names] of used) {
      if (!usedNames.has(target)) usedNames.set(target, new Set());
      for (const n of names) usedNames.get(target)!.add(n);
    }
  }
  const dead: string[] = [];
  for (const [file, { exported, mentions }] of modules) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    if (!/^(server|app)\//.test(rel) || /\.test\.tsx?$/.test(rel) || FRAMEWORK_ENTRY.test(rel)) continue;
    const used = usedNames.get(file) ?? new Set<string>();
    if (used.has("*")) continue;
    for (const [name, line] of exported) {
      if (used.has(name) || name === "default" || (mentions.get(name) ?? 0) > 1) continue;
      dead.push(`${rel}:${line} ${name}`);
    }
  }
  assert.ok(modules.size > 300, `read ${modules.size} files`);
  assert.deepEqual(dead.sort(), [], "exported and used nowhere: delete them");
});
