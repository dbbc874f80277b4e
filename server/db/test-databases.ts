import { after, describe } from "node:test";
import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "./client";
import { migrate } from "./migrate";

/**
 * Runs a suite on the embedded database and, when TEST_DATABASE_URL is set, again on a fresh
 * schema-isolated database on that PostgreSQL server. `open()` gives the suite's migrated database.
 */
export function withTestDatabases(name: string, suite: (open: () => Promise<Database>) => void): void {
  const targets: { label: string; open: () => Promise<Database> }[] = [
    { label: "embedded", open: () => openDatabase({ dataDir: "memory" }) },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) targets.push({ label: "postgres", open: () => openPostgresScratch(url) });

  for (const target of targets) {
    describe(`${name} [${target.label}]`, () => {
      let db: Promise<Database> | undefined;
      const open = () => (db ??= target.open().then(async (d) => (await migrate(d), d)));
      suite(open);
      after(async () => {
        if (db) await (await db).close();
      });
    });
  }
}

/** A fresh database on the server, dropped again when the process exits. */
async function openPostgresScratch(url: string): Promise<Database> {
  const { default: pg } = await import("pg");
  const name = `tl_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ url: target.toString() });
  return {
    ...db,
    close: async () => {
      await db.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
