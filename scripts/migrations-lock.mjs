// `npm run migrations:lock`: records the SHA-256 of each new migration in
// prisma/migrations/checksums.json (the checksum the runner stores in _prisma_migrations).
// A migration already recorded is never re-recorded: once it has shipped, its file must not change
// (server/db/migrations-lock.test.ts fails if it does); write a new migration instead.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const dir = path.join(import.meta.dirname, "..", "prisma", "migrations");
const manifestFile = path.join(dir, "checksums.json");
const manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, "utf8")) : {};

const names = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const problems = [];
const added = [];
for (const name of names) {
  const checksum = createHash("sha256")
    .update(readFileSync(path.join(dir, name, "migration.sql"), "utf8"))
    .digest("hex");
  if (!(name in manifest)) {
    manifest[name] = checksum;
    added.push(name);
  } else if (manifest[name] !== checksum)
    problems.push(`${name}: migration.sql changed after it was recorded (write a new migration instead)`);
}
for (const name of Object.keys(manifest)) if (!names.includes(name)) problems.push(`${name}: recorded but its folder is gone`);
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
const sorted = Object.fromEntries(
  Object.keys(manifest)
    .sort()
    .map((name) => [name, manifest[name]]),
);
writeFileSync(manifestFile, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(added.length ? `recorded ${added.join(", ")}` : "every migration was already recorded");
