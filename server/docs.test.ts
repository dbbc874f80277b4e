// The documentation stays findable and true to the code: every relative link in the README,
// CONTRIBUTING.md and docs/ points at a file that exists (and at a heading of it when it names
// one), and every setting server/env.ts reads is in docs/configuration.md.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const root = path.resolve(import.meta.dirname, "..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return name.endsWith(".md") ? [full] : [];
  });
}

const documents = [path.join(root, "README.md"), path.join(root, "CONTRIBUTING.md"), ...markdownFiles(path.join(root, "docs"))];

/** The text outside fenced code blocks and inline code spans, where a `[x](y)` is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchors for a document's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*_]/g, (c) => (c === "_" ? "_" : ""))
      .toLowerCase();
    const slug = text
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .trim()
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

test("anchors follow GitHub's rules", () => {
  assert.deepEqual(
    [...anchors("# A title\n## The v2 API (the 0.12 client's `resources/`)\n## A title\n```\n# not a heading\n```\n")],
    ["a-title", "the-v2-api-the-012-clients-resources", "a-title-1"],
  );
});

test("every relative link in the README, CONTRIBUTING.md and docs/ points at something that exists", () => {
  const broken: string[] = [];
  for (const file of documents) {
    const text = readFileSync(file, "utf8");
    for (const target of links(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart = "", anchor] = target.split("#", 2) as [string, string | undefined];
      const resolved = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
      const where = `${path.relative(root, file)} → ${target}`;
      if (!resolved.startsWith(root + path.sep) && resolved !== root) {
        broken.push(`${where}: outside the repository`);
        continue;
      }
      if (!existsSync(resolved)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchors(readFileSync(resolved, "utf8")).has(anchor)) {
        broken.push(`${where}: no heading with that anchor`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test("the docs index lists every page in docs/", () => {
  const index = readFileSync(path.join(root, "docs", "README.md"), "utf8");
  const listed = new Set(links(index).map((l) => path.resolve(root, "docs", l.split("#")[0]!)));
  const missing = markdownFiles(path.join(root, "docs"))
    .filter((f) => path.basename(f) !== "README.md" && !listed.has(f))
    .map((f) => path.relative(root, f));
  assert.deepEqual(missing, [], "add a line for each page to docs/README.md");
});

test("every setting server/env.ts reads is documented in docs/configuration.md", () => {
  const source = readFileSync(path.join(root, "server", "env.ts"), "utf8");
  const start = source.indexOf("const schema");
  const schema = source.slice(start, source.indexOf("\n  })", start));
  const names = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
  assert.ok(names.length > 40, `read ${names.length} settings from server/env.ts; has its schema moved?`);
  const configuration = readFileSync(path.join(root, "docs", "configuration.md"), "utf8");
  const documented = new Set([...configuration.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  assert.deepEqual(
    names.filter((n) => !documented.has(n)),
    [],
    "document these in docs/configuration.md",
  );
});
