// Seeds the query benchmark's runs with one INSERT … SELECT generate_series per chunk: 10 runs per
// trace (a chain root, 3 LLM calls, tools, retrievers, a parser) across 10 projects over 30 days,
// with realistic names, tags, metadata, tokens, costs and a 3% error rate, and the traces' totals. The rollup triggers keep
// the analytics buckets as the rows arrive; they are compacted at the end.
import type { Database } from "../server/db/client";
import { sql } from "../server/db/sql";
import { compactRollups } from "../server/runs/rollups/compact";

const QUESTIONS = [
  "How do I reset my password?",
  "Summarize the quarterly report",
  "What is the refund policy for damaged items?",
  "Translate this paragraph to French",
  "Classify the sentiment of this review",
  "Write a SQL query for monthly revenue",
  "Explain the difference between TCP and UDP",
  "Draft a reply to the customer complaint",
  "Which plan includes SSO?",
  "Extract the invoice total and due date",
  "Plan a three day trip to Lisbon",
  "Debug this Python stack trace",
  "List the side effects of ibuprofen",
  "Compare the two contract versions",
  "Generate unit tests for this function",
  "What were the key decisions in the meeting?",
  "Recommend a laptop for video editing",
  "Rewrite this email more politely",
  "Find the cheapest flight to Tokyo",
  "Explain vector databases to a beginner",
];

export const SEARCH_TERM = "refund";
export const RARE_TAG = "beta";

export async function seedRuns(
  db: Database,
  workspaceId: string,
  projectIds: string[],
  total: number,
  log: (s: string) => void,
  /** Distinguishes the ids of a second seeding of the same database. */
  idPrefix = "run-",
): Promise<void> {
  const indexes = await db.sql.query<{ indexname: string; indexdef: string }>(sql`
    SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'runs' AND indexname <> 'runs_pkey'`);
  // Building indexes once after the load is several times faster than maintaining them row by row.
  for (const index of indexes) await db.execScript(`DROP INDEX "${index.indexname}"`);
  const now = new Date().toISOString();
  const spanSeconds = 30 * 86_400;
  const traces = Math.ceil(total / 10);
  const chunk = 100_000;
  for (let from = 0; from < total; from += chunk) {
    const to = Math.min(total, from + chunk);
    await db.sql.query(sql`
      INSERT INTO runs (id, workspace_id, project_id, trace_id, parent_run_id, dotted_order, is_root, name, run_type, status,
        start_time, end_time, latency_ms, inputs, outputs, error, extra, tags, thread_id, model, provider,
        prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost, first_token_time)
      SELECT id, ${workspaceId}::uuid, (${projectIds}::uuid[])[t % 10 + 1], trace_id, CASE WHEN pos = 0 THEN NULL ELSE trace_id END,
        CASE WHEN pos = 0 THEN to_char(st AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISSUS"Z"') || id
          ELSE to_char((st - pos * interval '100 milliseconds') AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISSUS"Z"') || trace_id || '.'
            || to_char(st AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISSUS"Z"') || id END,
        pos = 0,
        CASE WHEN pos = 0 THEN (ARRAY['agent', 'rag_pipeline', 'chat', 'summarize', 'classify'])[t % 5 + 1]
          WHEN pos <= 3 THEN (ARRAY['ChatOpenAI', 'ChatAnthropic', 'ChatGoogleGenerativeAI'])[h % 3 + 1]
          WHEN pos <= 6 THEN (ARRAY['search_web', 'calculator', 'lookup_order', 'send_email'])[h % 4 + 1]
          WHEN pos <= 8 THEN 'vector_search' ELSE 'output_parser' END,
        rt, CASE WHEN h % 100 < 3 THEN 'error' ELSE 'success' END,
        st, st + latency * interval '1 millisecond', latency,
        jsonb_build_object('question', (${QUESTIONS}::text[])[h % 20 + 1] || ' #' || t),
        jsonb_build_object('answer', 'Answer to request ' || t || ' from step ' || pos),
        CASE WHEN h % 100 < 3 THEN 'RateLimitError: too many requests, retry after 20s' END,
        jsonb_build_object('metadata', jsonb_build_object('user_id', 'user_' || (u % 1000), 'env', env, 'thread_id', 'thread_' || (t / 5),
          'ls_model_name', CASE WHEN rt = 'llm' THEN model END), 'runtime', jsonb_build_object('sdk', 'langsmith-js', 'sdk_version', '0.12.0')),
        CASE WHEN v % 20 = 0 THEN ARRAY[env, ${RARE_TAG}] ELSE ARRAY[env] END,
        'thread_' || (t / 5),
        CASE WHEN rt = 'llm' THEN model END,
        CASE WHEN rt = 'llm' THEN split_part(model, '-', 1) END,
        CASE WHEN rt = 'llm' THEN 100 + h % 2000 END,
        CASE WHEN rt = 'llm' THEN 10 + h % 500 END,
        CASE WHEN rt = 'llm' THEN 110 + h % 2000 + h % 500 END,
        CASE WHEN rt = 'llm' THEN (100 + h % 2000) * 0.0000025 END,
        CASE WHEN rt = 'llm' THEN (10 + h % 500) * 0.00001 END,
        CASE WHEN rt = 'llm' THEN (100 + h % 2000) * 0.0000025 + (10 + h % 500) * 0.00001 END,
        CASE WHEN rt = 'llm' AND h % 2 = 0 THEN st + (latency * 0.2) * interval '1 millisecond' END
      FROM (
        SELECT i, t, pos, h, md5(${idPrefix} || i)::uuid AS id, md5(${idPrefix} || (i - pos))::uuid AS trace_id,
          (hashtext('u' || t) & 2147483647) AS u, (hashtext('v' || t) & 2147483647) AS v,
          (ARRAY['prod', 'staging', 'dev'])[t % 3 + 1] AS env,
          (ARRAY['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'gemini-1.5-pro', 'llama-3-70b'])[h % 5 + 1] AS model,
          CASE WHEN pos = 0 THEN 'chain' WHEN pos <= 3 THEN 'llm' WHEN pos <= 6 THEN 'tool' WHEN pos <= 8 THEN 'retriever' ELSE 'parser' END AS rt,
          CASE WHEN pos = 0 THEN 2000 + h % 8000 ELSE 50 + h % 3000 END AS latency,
          ${now}::timestamptz - (t::float8 * ${spanSeconds / traces}) * interval '1 second' + pos * interval '100 milliseconds' AS st
        FROM (SELECT i, i / 10 AS t, i % 10 AS pos, (hashtext(i::text) & 2147483647) AS h FROM generate_series(${from}::int, ${to - 1}::int) AS i) g
      ) s`);
    log(`  seeded ${to.toLocaleString()} / ${total.toLocaleString()} runs`);
  }
  for (const index of indexes) {
    const started = performance.now();
    // `ON ONLY` (a partitioned table's definition) would make the parent's index alone.
    await db.execScript(index.indexdef.replace(" ON ONLY ", " ON "));
    log(`  index ${index.indexname} built in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  }
  // What ingest's totals upsert keeps per trace (server/runs/trace-totals.ts), summed once over the load,
  // a sixteenth of the traces at a time (the rollup trigger's statement stays short).
  for (let digit = 0; digit < 16; digit++) {
    const low = `${digit.toString(16)}0000000-0000-0000-0000-000000000000`;
    const high = digit === 15 ? null : `${(digit + 1).toString(16)}0000000-0000-0000-0000-000000000000`;
    await db.sql.query(sql`
    INSERT INTO trace_totals (workspace_id, trace_id, runs, llm_runs, error_runs, prompt_tokens, completion_tokens, total_tokens,
      prompt_cost, completion_cost, total_cost, project_id, root_total_tokens, root_total_cost)
    SELECT r.workspace_id, r.trace_id, count(*), count(*) FILTER (WHERE r.run_type = 'llm'), count(*) FILTER (WHERE r.status = 'error'),
      sum(r.prompt_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.completion_tokens) FILTER (WHERE r.run_type = 'llm'),
      sum(r.total_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.prompt_cost) FILTER (WHERE r.run_type = 'llm'),
      sum(r.completion_cost) FILTER (WHERE r.run_type = 'llm'), sum(r.total_cost) FILTER (WHERE r.run_type = 'llm'),
      (array_agg(r.project_id) FILTER (WHERE r.is_root))[1], (array_agg(r.total_tokens) FILTER (WHERE r.is_root))[1],
      (array_agg(r.total_cost) FILTER (WHERE r.is_root))[1]
    FROM runs r WHERE r.workspace_id = ${workspaceId} AND r.project_id = ANY(${projectIds}::uuid[])
      AND r.trace_id >= ${low}::uuid AND (${high}::uuid IS NULL OR r.trace_id < ${high}::uuid)
    GROUP BY r.workspace_id, r.trace_id
    ON CONFLICT (workspace_id, trace_id) DO NOTHING`);
  }
  log("  trace totals summed");
  await db.sql.query(sql`
    INSERT INTO feedback (id, workspace_id, run_id, trace_id, project_id, key, score)
    SELECT md5('fb-' || r.id)::uuid, r.workspace_id, r.id, r.trace_id, r.project_id, 'correctness', (hashtext(r.id::text) & 1)::float8
    FROM runs r WHERE r.workspace_id = ${workspaceId} AND r.project_id = ANY(${projectIds}::uuid[]) AND r.is_root AND hashtext(r.id::text) % 10 = 0`);
  // As a live server's worker does every few seconds: fold the rollups' delta rows.
  await compactRollups(db.sql);
  await db.execScript(
    "ANALYZE runs; ANALYZE trace_totals; ANALYZE feedback; ANALYZE run_buckets; ANALYZE run_sketches; ANALYZE feedback_buckets; ANALYZE run_dim_sketches; ANALYZE feedback_dim_buckets",
  );
}
