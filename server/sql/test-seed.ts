import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { createWorkspace } from "../auth/workspaces";
import { createFeedback } from "../feedback/service";
import { ingestRuns } from "../ingest/service";

export interface SqlSeed {
  ws: string;
  /** Project "sql-a": 30 runs (20 llm: 12 of gpt-4o, 8 of claude; 10 chains), three of them scored. */
  projectA: string;
  /** Project "sql-a2" of the same workspace: 5 runs. */
  projectA2: string;
  /** Another workspace's project, whose runs carry SECRET-B. */
  otherWs: string;
  projectB: string;
  /** A run whose input holds U+0000. */
  nulRun: string;
}

const MINUTE = 60_000;

/** Two workspaces' runs and feedback for the read-only SQL tests, started within the last hour. */
export async function seedSql(db: Sql): Promise<SqlSeed> {
  const ws = (await createWorkspace(db.prisma, "sql")).id;
  const otherWs = (await createWorkspace(db.prisma, "sql-other")).id;
  const now = Date.now();
  const nulRun = randomUUID();
  const post = Array.from({ length: 30 }, (_, i) => ({
    id: i === 0 ? nulRun : randomUUID(),
    name: i < 20 ? "model call" : "pipeline",
    run_type: i < 20 ? "llm" : "chain",
    session_name: "sql-a",
    start_time: now - (i + 1) * MINUTE,
    end_time: now - (i + 1) * MINUTE + 1000 + i,
    inputs: i === 0 ? { text: "nul \u0000 here" } : { i },
    outputs: i < 20 ? { usage_metadata: { input_tokens: 10, output_tokens: i, total_tokens: 10 + i } } : { ok: true },
    tags: ["sql", `n${i}`],
    extra: i < 20 ? { metadata: { ls_model_name: i < 12 ? "gpt-4o" : "claude", turn: i } } : { metadata: { turn: i } },
  }));
  await ingestRuns(db, ws, { post });
  await ingestRuns(db, ws, {
    post: Array.from({ length: 5 }, (_, i) => ({
      id: randomUUID(),
      name: "other",
      run_type: "tool",
      session_name: "sql-a2",
      start_time: now - i * MINUTE,
    })),
  });
  await ingestRuns(db, otherWs, {
    post: Array.from({ length: 10 }, (_, i) => ({
      id: randomUUID(),
      name: "SECRET-B",
      run_type: "llm",
      session_name: "sql-b",
      start_time: now - i * MINUTE,
      inputs: { secret: "SECRET-B" },
    })),
  });
  for (const [i, score] of [0.2, 0.6, 1].entries()) {
    await createFeedback(db, ws, { run_id: post[i]!.id, key: "correctness", score });
  }
  const projects = await db.prisma.project.findMany({
    where: { name: { in: ["sql-a", "sql-a2", "sql-b"] }, workspaceId: { in: [ws, otherWs] } },
  });
  const id = (name: string) => projects.find((p) => p.name === name)!.id;
  return { ws, projectA: id("sql-a"), projectA2: id("sql-a2"), otherWs, projectB: id("sql-b"), nulRun };
}
