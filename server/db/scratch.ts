import { randomBytes } from "node:crypto";

/** A fresh database on the PostgreSQL server at `url`; `drop()` removes it, closing what is still connected. */
export async function scratchDatabase(url: string, prefix = "tl_test"): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import("pg");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return { url: target.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
