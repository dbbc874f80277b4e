import { after, before, test } from "node:test";
import { resetEnv } from "../env";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { startFakeOpenAI } from "./fake-openai";
import { templateVariables } from "./manifest";
import { generateBody, generationConfigUpdate } from "./schema";
import { decryptSecret, encryptSecret } from "../core/secret";
import { generate, readGenerationConfig, updateGenerationConfig } from "./service";

const fails = (code: number, detail: RegExp) => (e: unknown) => e instanceof AppError && e.status === code && detail.test(e.detail);
let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
const saved = { ...process.env };

before(async () => {
  fake = await startFakeOpenAI();
});
after(async () => {
  await fake.close();
  process.env = saved;
  resetEnv();
});

function deployment(on: boolean) {
  for (const k of ["GENERATION_BASE_URL", "GENERATION_API_KEY", "GENERATION_MODEL"]) delete process.env[k];
  if (on) Object.assign(process.env, { GENERATION_BASE_URL: fake.url, GENERATION_API_KEY: "deploy-key", ALLOW_PRIVATE_EGRESS: "1" });
  resetEnv();
}

test("secrets: AES-256-GCM round trip; tampering or another SECRET_KEY reads as null", () => {
  const box = encryptSecret("sk-live-123");
  assert.doesNotMatch(box, /sk-live/);
  assert.notEqual(encryptSecret("sk-live-123"), box);
  assert.equal(decryptSecret(box), "sk-live-123");
  const parts = box.split(".");
  parts[3] = Buffer.from("tampered").toString("base64url");
  assert.equal(decryptSecret(parts.join(".")), null);
  process.env.SECRET_KEY = "another-secret-key-value";
  resetEnv();
  assert.equal(decryptSecret(box), null);
  delete process.env.SECRET_KEY;
  resetEnv();
  assert.equal(decryptSecret("plain"), null);
});

test("template variables: f-string braces, escaped braces ignored, first-use order", () => {
  assert.deepEqual(templateVariables('{b} and {a} then {b}; {{not}} {{"x": 1}}'), ["b", "a"]);
});

test("request validation names the field", () => {
  assert.match(JSON.stringify(generateBody.safeParse({ kind: "poem", description: "x" }).error?.issues), /prompt.*evaluator.*examples/);
  assert.equal(generateBody.safeParse({ kind: "examples", description: "x", count: 51 }).success, false);
  assert.equal(generateBody.safeParse({ kind: "prompt", description: "" }).success, false);
  assert.equal(generateBody.parse({ kind: "examples", description: "x" }).kind === "examples", true);
  assert.equal(generationConfigUpdate.safeParse({ base_url: "ftp://x" }).success, false);
});

withTestDatabases("generation", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "gen")).id;
  });

  test("not configured: 400 that says how to configure", async () => {
    deployment(false);
    await assert.rejects(
      generate(db, ws, generateBody.parse({ kind: "prompt", description: "x" })),
      fails(400, /GENERATION_BASE_URL.*PUT \/generate\/config/),
    );
    assert.deepEqual(
      { ...(await readGenerationConfig(db, ws)), updated_at: null },
      { configured: false, source: null, base_url: null, model: "gpt-4o-mini", api_key_set: false, updated_at: null },
    );
  });

  test("prompt: a ChatPromptTemplate manifest from the deployment's endpoint in JSON mode", async () => {
    deployment(true);
    process.env.GENERATION_MODEL = "test-model";
    resetEnv();
    fake.seen.length = 0;
    const out = await generate(
      db,
      ws,
      generateBody.parse({ kind: "prompt", description: "answer questions", input_variables: ["question"] }),
    );
    assert.equal(out.model, "test-model");
    assert.deepEqual(out.input_variables, ["topic", "question"]);
    const manifest = out.manifest as {
      id: string[];
      kwargs: {
        input_variables: string[];
        messages: { id: string[]; kwargs: { prompt: { kwargs: { template: string; input_variables: string[] } } } }[];
      };
    };
    assert.deepEqual(manifest.id, ["langchain", "prompts", "chat", "ChatPromptTemplate"]);
    assert.deepEqual(
      manifest.kwargs.messages.map((m) => m.id.at(-1)),
      ["SystemMessagePromptTemplate", "HumanMessagePromptTemplate"],
    );
    assert.deepEqual(manifest.kwargs.messages[1].kwargs.prompt.kwargs, {
      input_variables: ["question"],
      template: "{question}",
      template_format: "f-string",
    });
    const [req] = fake.seen;
    assert.equal(req.path, "/v1/chat/completions");
    assert.equal(req.authorization, "Bearer deploy-key");
    assert.equal(req.body.model, "test-model");
    assert.deepEqual(req.body.response_format, { type: "json_object" });
    assert.match(req.body.messages[1].content, /answer questions[\s\S]*\{question\}/);
    delete process.env.GENERATION_MODEL;
    resetEnv();
  });

  test("evaluator: a StructuredPrompt with the output schema", async () => {
    const out = await generate(db, ws, generateBody.parse({ kind: "evaluator", description: "correctness against the reference" }));
    assert.deepEqual(out.input_variables, ["inputs", "outputs", "reference_outputs"]);
    const schema = out.output_schema as { type: string; properties: Record<string, unknown>; required: string[]; title: string };
    assert.equal(schema.type, "object");
    assert.deepEqual(Object.keys(schema.properties), ["correct", "comment"]);
    const manifest = out.manifest as { id: string[]; kwargs: { schema_: unknown } };
    assert.deepEqual(manifest.id, ["langchain_core", "prompts", "structured", "StructuredPrompt"]);
    assert.deepEqual(manifest.kwargs.schema_, schema);
  });

  test("examples: N {inputs, outputs}; fenced JSON accepted; an unknown dataset is a 404", async () => {
    const out = await generate(db, ws, generateBody.parse({ kind: "examples", description: "arithmetic FENCED", count: 4 }));
    assert.equal((out.examples as unknown[]).length, 4);
    assert.deepEqual((out.examples as unknown[])[2], { inputs: { question: "What is 2 + 2?" }, outputs: { answer: "4" } });
    await assert.rejects(
      generate(db, ws, generateBody.parse({ kind: "examples", description: "x", dataset_id: randomUUID() })),
      fails(404, /Dataset/),
    );
  });

  test("examples for a dataset: its name, schema and current examples guide the model", async (t) => {
    const [exists] = await db.query<{ t: string | null }>(sql`SELECT to_regclass('datasets')::text AS t`);
    if (!exists?.t) return t.skip("datasets tables not present");
    const id = randomUUID();
    await db.query(
      sql`INSERT INTO datasets (id, workspace_id, name, description, inputs_schema_definition) VALUES (${id}, ${ws}, 'math', 'sums', ${JSON.stringify({ type: "object", properties: { question: { type: "string" } } })}::jsonb)`,
    );
    fake.seen.length = 0;
    const out = await generate(db, ws, generateBody.parse({ kind: "examples", description: "more sums", count: 2, dataset_id: id }));
    assert.equal(out.dataset_id, id);
    assert.match(fake.seen[0].body.messages[1].content, /"math" \(sums\)[\s\S]*question/);
    await assert.rejects(
      generate(db, randomUUID(), generateBody.parse({ kind: "examples", description: "x", dataset_id: id })),
      fails(404, /Dataset/),
    );
  });

  test("bad model output and upstream failures are 502s that say what came back", async () => {
    await assert.rejects(
      generate(db, ws, generateBody.parse({ kind: "prompt", description: "NOT_JSON" })),
      fails(502, /not valid JSON: Sure!/),
    );
    await assert.rejects(
      generate(db, ws, generateBody.parse({ kind: "prompt", description: "WRONG_SHAPE" })),
      fails(502, /not a valid prompt: messages/),
    );
    await assert.rejects(
      generate(db, ws, generateBody.parse({ kind: "evaluator", description: "WRONG_SHAPE" })),
      fails(502, /not a valid evaluator/),
    );
    await assert.rejects(
      generate(db, ws, generateBody.parse({ kind: "prompt", description: "UPSTREAM_500" })),
      fails(502, /HTTP 500.*upstream exploded/),
    );
    await assert.rejects(
      generate(db, ws, generateBody.parse({ kind: "prompt", description: "x", input_variables: ["missing_var"] })),
      fails(502, /missing_var/),
    );
  });

  test("private addresses are refused unless ALLOW_PRIVATE_EGRESS=1", async () => {
    delete process.env.ALLOW_PRIVATE_EGRESS;
    resetEnv();
    await assert.rejects(generate(db, ws, generateBody.parse({ kind: "prompt", description: "x" })), fails(400, /not a public address/));
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    resetEnv();
  });

  test("workspace endpoint: key stored encrypted, never returned, sent only to its own URL; other workspaces keep the deployment's", async () => {
    const url = fake.url.replace("127.0.0.1", "localhost");
    const cfg = await updateGenerationConfig(
      db,
      ws,
      generationConfigUpdate.parse({ base_url: url, api_key: "ws-secret-key", model: "ws-model" }),
    );
    assert.deepEqual(
      { ...cfg, updated_at: null },
      { configured: true, source: "workspace", base_url: url, model: "ws-model", api_key_set: true, updated_at: null },
    );
    assert.doesNotMatch(JSON.stringify(cfg), /ws-secret-key/);
    const [row] = await db.query<{ api_key_encrypted: string }>(
      sql`SELECT api_key_encrypted FROM generation_settings WHERE workspace_id = ${ws}`,
    );
    assert.doesNotMatch(row.api_key_encrypted, /ws-secret-key/);
    fake.seen.length = 0;
    await generate(db, ws, generateBody.parse({ kind: "examples", description: "x", count: 1 }));
    assert.equal(fake.seen[0].authorization, "Bearer ws-secret-key");
    assert.equal(fake.seen[0].body.model, "ws-model");

    // A new URL without a new key drops the key: it is never sent somewhere it was not set for.
    const moved = await updateGenerationConfig(db, ws, generationConfigUpdate.parse({ base_url: fake.url }));
    assert.equal(moved.api_key_set, false);
    fake.seen.length = 0;
    await generate(db, ws, generateBody.parse({ kind: "examples", description: "x", count: 1 }));
    assert.equal(fake.seen[0].authorization, undefined);

    const other = (await createWorkspace(db.prisma, "other")).id;
    fake.seen.length = 0;
    await generate(db, other, generateBody.parse({ kind: "examples", description: "x", count: 1 }));
    assert.equal(fake.seen[0].authorization, "Bearer deploy-key");
    assert.equal((await readGenerationConfig(db, other)).source, "deployment");

    // Clearing the URL falls back to the deployment's endpoint.
    const cleared = await updateGenerationConfig(db, ws, generationConfigUpdate.parse({ base_url: null, model: null }));
    assert.equal(cleared.source, "deployment");
  });
});
