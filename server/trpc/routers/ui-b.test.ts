import assert from "node:assert/strict";
import { test } from "node:test";
import { TRPCError } from "@trpc/server";
import { signUp } from "../../auth/users";
import type { Sql } from "../../db/client";
import { sql } from "../../db/sql";
import { withTestDatabases } from "../../db/test-databases";
import { createFeedbackConfig } from "../../feedback/configs";
import { storeProject, storeRun } from "../../feedback/test-runs";
import { createCaller } from "../router";

const code = (expected: string) => (error: unknown) => error instanceof TRPCError && error.code === expected;

/** The UI's conversation, feedback, settings, datasets, charts and prompts procedures, as a signed-in member and as an outsider. */
withTestDatabases("trpc-ui-b", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let me: ReturnType<typeof createCaller>;
  let outsider: ReturnType<typeof createCaller>;
  let runId: string;
  let userA: string;

  test("setup: two users with a workspace each; an OpenAI-format LLM run in the first", async () => {
    db = (await open()).sql;
    const a = await signUp(db, { email: "a@example.com", password: "password-a-1" });
    const b = await signUp(db, { email: "b@example.com", password: "password-b-1" });
    ws = a.workspaceId;
    userA = a.userId;
    other = b.workspaceId;
    me = createCaller({ sql: db, userId: a.userId });
    outsider = createCaller({ sql: db, userId: b.userId });
    runId = await storeRun(db, ws, await storeProject(db, ws), {
      runType: "llm",
      inputs: { messages: [{ role: "user", content: "Hi <script>alert(1)</script>" }] },
      outputs: { choices: [{ finish_reason: "stop", message: { role: "assistant", content: "Hello" } }] },
    });
  });

  test("conversation.get reads the run's messages; another workspace's member gets a 404", async () => {
    const { conversation, details } = await me.conversation.get({ workspaceId: ws, runId });
    assert.equal(conversation.format, "openai");
    assert.deepEqual(conversation.input[0].blocks, [{ type: "text", text: "Hi <script>alert(1)</script>" }]);
    assert.equal(details?.tokens_estimated, false);
    await assert.rejects(outsider.conversation.get({ workspaceId: ws, runId }), code("NOT_FOUND"));
    await assert.rejects(outsider.conversation.get({ workspaceId: other, runId }), code("NOT_FOUND"));
  });

  test("feedback.create records app feedback with the user; forRun lists it", async () => {
    const made = await me.feedback.create({ workspaceId: ws, runId, key: "helpful", score: 1, comment: "good", correction: { a: 1 } });
    assert.equal(made.run_id, runId);
    assert.deepEqual(made.feedback_source, { type: "app", metadata: { user_id: userA } });
    const listed = await me.feedback.forRun({ workspaceId: ws, runId, traceId: runId });
    assert.deepEqual(
      listed.map((f) => f.key),
      ["helpful"],
    );
    await assert.rejects(outsider.feedback.create({ workspaceId: other, runId, key: "x" }), code("NOT_FOUND"));
  });

  test("feedback follows the workspace's configs, names its reviewer, and only its author changes it", async () => {
    await createFeedbackConfig(db, ws, { feedback_key: "quality", feedback_config: { type: "continuous", min: 0, max: 1 } });
    await createFeedbackConfig(db, ws, {
      feedback_key: "tone",
      feedback_config: { type: "categorical", categories: [{ value: "friendly" }, { value: "neutral" }] },
    });
    assert.deepEqual(
      (await me.feedback.configs({ workspaceId: ws })).map((c) => c.feedback_key),
      ["quality", "tone"],
    );
    await assert.rejects(
      me.feedback.create({ workspaceId: ws, runId, key: "quality", score: 1.5 }),
      (e: unknown) => code("BAD_REQUEST")(e) && /outside the range of "quality": 0 to 1/.test((e as Error).message),
    );
    await assert.rejects(
      me.feedback.create({ workspaceId: ws, runId, key: "tone", value: "rude" }),
      (e: unknown) => code("BAD_REQUEST")(e) && /not a category of "tone": choose one of friendly, neutral/.test((e as Error).message),
    );
    const made = await me.feedback.create({ workspaceId: ws, runId, key: "tone", value: "friendly" });
    const mine = (await me.feedback.forRun({ workspaceId: ws, runId })).find((f) => f.id === made.id)!;
    assert.deepEqual([mine.author, mine.mine], [{ user_id: userA, name: "a@example.com" }, true]);

    const colleague = await signUp(db, { email: "c@example.com", password: "password-c-1" });
    await db.query(sql`INSERT INTO memberships (user_id, workspace_id, role) VALUES (${colleague.userId}, ${ws}, 'member')`);
    const asColleague = createCaller({ sql: db, userId: colleague.userId });
    await assert.rejects(
      asColleague.feedback.update({ workspaceId: ws, id: made.id, score: null, comment: "mine now" }),
      code("FORBIDDEN"),
    );
    await assert.rejects(asColleague.feedback.delete({ workspaceId: ws, id: made.id }), code("FORBIDDEN"));
    const edited = await me.feedback.update({ workspaceId: ws, id: made.id, value: "neutral", score: null, comment: "on reflection" });
    assert.deepEqual([edited.value, edited.comment], ["neutral", "on reflection"]);
    await me.feedback.delete({ workspaceId: ws, id: made.id });
    assert.equal(
      (await me.feedback.forRun({ workspaceId: ws, runId })).some((f) => f.id === made.id),
      false,
    );
    await db.query(sql`DELETE FROM memberships WHERE user_id = ${colleague.userId} AND workspace_id = ${ws}`);
  });

  test("settings: an API key is shown once, listed by prefix, revoked", async () => {
    const created = await me.settings.apiKeys.create({ workspaceId: ws, key: { description: "ci" } });
    assert.match(created.key, /^tl_(us|eu)_/);
    const listed = await me.settings.apiKeys.list({ workspaceId: ws });
    const row = listed.find((k) => k.id === created.id)!;
    assert.equal(row.description, "ci");
    assert.equal("key" in row, false, "the list never carries the secret");
    await me.settings.apiKeys.revoke({ workspaceId: ws, id: created.id });
    assert.equal(
      (await me.settings.apiKeys.list({ workspaceId: ws })).some((k) => k.id === created.id),
      false,
    );
    assert.deepEqual(
      (await me.settings.members.list({ workspaceId: ws })).map((m) => m.email),
      ["a@example.com"],
    );
    const prices = await me.settings.prices.list({ workspaceId: ws });
    assert.ok(prices.some((p) => p.source === "shipped"));
  });

  test("datasets: create, add the run, list its examples", async () => {
    const dataset = await me.datasets.create({ workspaceId: ws, dataset: { name: "regressions" } });
    await me.datasets.addRuns({ workspaceId: ws, datasetId: dataset.id, body: { run_ids: [runId], split: "test" } });
    const examples = await me.datasets.examples({ workspaceId: ws, datasetId: dataset.id });
    assert.equal(examples.length, 1);
    assert.equal(examples[0].source_run_id, runId);
    assert.equal((await me.datasets.get({ workspaceId: ws, datasetId: dataset.id })).example_count, 1);
    await assert.rejects(outsider.datasets.examples({ workspaceId: other, datasetId: dataset.id }), code("NOT_FOUND"));
  });

  test("charts.series counts the run; prompts.list is empty", async () => {
    const chart = await me.charts.series({ workspaceId: ws, request: { metrics: ["run_count"], max_groups: 10 } });
    assert.equal(
      chart.series[0].values.reduce<number>((a, v) => a + (v ?? 0), 0),
      1,
    );
    assert.deepEqual((await me.prompts.list({ workspaceId: ws })).repos, []);
  });
});
