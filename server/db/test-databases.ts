import { after, describe } from "node:test";
import { openDatabase, type Database } from "./client";
import { migrate } from "./migrate";
import { scratchDatabase } from "./scratch";

/**
 * Runs a suite on the embedded database and, when TEST_DATABASE_URL is set, again on a fresh
 * schema-isolated database on that PostgreSQL server. `open()` gives the suite's migrated database
 * (`migrated: false`: an empty one, for a suite that migrates it itself).
 */
export function withTestDatabases(
  name: string,
  suite: (open: () => Promise<Database>) => void,
  options: { migrated?: boolean } = {},
): void {
  const targets: { label: string; open: () => Promise<Database> }[] = [
    { label: "embedded", open: () => openDatabase({ dataDir: "memory" }) },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) targets.push({ label: "postgres", open: () => openPostgresScratch(url) });

  for (const target of targets) {
    describe(`${name} [${target.label}]`, () => {
      let db: Promise<Database> | undefined;
      const open = () =>
        (db ??= target.open().then(async (d) => {
          if (options.migrated !== false) await migrate(d);
          return d;
        }));
      suite(open);
      after(async () => {
        if (db) await (await db).close();
      });
    });
  }
}

/** A fresh database on the server for one suite, dropped when the suite closes it. */
async function openPostgresScratch(url: string): Promise<Database> {
  const scratch = await scratchDatabase(url);
  const db = await openDatabase({ url: scratch.url });
  return {
    ...db,
    close: async () => {
      await db.close();
      await scratch.drop();
    },
  };
}
