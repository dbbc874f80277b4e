/**
 * Fuzzing the parsers that read what clients send: every input either parses or is refused with a
 * clear 4xx; nothing crashes. FUZZ_RUNS sets how many cases each property tries (`npm run fuzz`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { disposeParts, readMultipart } from "../http/multipart";
import { toConversation } from "../llm/conversation";
import { conversation } from "../llm/conversation-types";
import { decodeExportRequest } from "../otel/decode";
import { spansToRuns } from "../otel/to-runs";
import { compileFilter } from "../runs/filter";
import { compile } from "../db/sql";
import { anyJson, anyText, FUZZ_RUNS, refusedOrDone } from "./arbitraries";

const settings = { numRuns: FUZZ_RUNS };

/** The bytes cut at these offsets, as a stream would deliver them. */
const cutAt = (bytes: Buffer, cuts: number[]) => {
  const offsets = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...offsets, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : offsets[i - 1], end));
};

test("fuzz: the multipart parser reads or refuses any body, in chunks cut anywhere as in one piece", async () => {
  const spool = mkdtempSync(path.join(tmpdir(), "tracelight-fuzz-"));
  const read = async (chunks: Buffer[]) => {
    const parts = await readMultipart(chunks, boundary, spool);
    await disposeParts(parts);
    return parts.map((p) => [p.name, p.contentType, p.body?.toString("hex")]);
  };
  const boundary = "XyZ";
  const part = fc.record({
    name: anyText,
    type: fc.constantFrom("application/json", "text/plain", "", "x; length=3"),
    body: fc.uint8Array({ maxLength: 64 }),
  });
  const body = fc.oneof(
    fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
    fc
      .array(part, { maxLength: 4 })
      .chain((parts) =>
        fc
          .boolean()
          .map((closed) =>
            Buffer.concat([
              ...parts.flatMap((p) => [
                Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\nContent-Type: ${p.type}\r\n\r\n`),
                Buffer.from(p.body),
                Buffer.from("\r\n"),
              ]),
              Buffer.from(closed ? `--${boundary}--\r\n` : ""),
            ]),
          ),
      ),
  );
  await fc.assert(
    fc.asyncProperty(body, fc.array(fc.nat(), { maxLength: 6 }), async (bytes, cuts) => {
      const whole = await refusedOrDone(() => read([bytes]));
      const inChunks = await refusedOrDone(() => read(cutAt(bytes, cuts)));
      assert.deepEqual(inChunks, whole);
    }),
    settings,
  );
});

test("fuzz: both OTLP decoders (protobuf and JSON) read or refuse any body", async () => {
  const jsonish = anyJson.map((v) =>
    Buffer.from(
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [v, { traceId: v, spanId: v, attributes: [{ key: "k", value: v }] }] }] }],
      }),
    ),
  );
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), jsonish, async (raw, json) => {
      for (const [bytes, type] of [
        [Buffer.from(raw), "application/x-protobuf"],
        [Buffer.from(raw), "application/json"],
        [json, "application/json"],
      ] as const) {
        const request = await refusedOrDone(() => decodeExportRequest(bytes, type));
        if (request) spansToRuns(request, {});
      }
    }),
    settings,
  );
});

test("fuzz: the filter language compiles or refuses any text, and any filter built from its grammar", async () => {
  const field = fc.constantFrom(
    "name",
    "run_type",
    "latency",
    "start_time",
    "tags",
    "metadata",
    "inputs",
    "error",
    "total_tokens",
    "feedback_key",
    "x",
  );
  const op = fc.constantFrom("eq", "neq", "gt", "gte", "lt", "lte", "has", "search", "like", "in", "exists", "and", "or", "not", "bogus");
  const value = fc.oneof(
    anyText.map((t) => JSON.stringify(t)),
    fc.double().map(String),
    fc.constantFrom("true", "null", "[]", '["a", 1]'),
  );
  const node = fc.letrec((tie) => ({
    expr: fc.oneof(
      { depthSize: "small" },
      fc.tuple(op, field, value).map(([o, f, v]) => `${o}(${f}, ${v})`),
      fc.tuple(fc.constantFrom("and", "or", "not"), fc.array(tie("expr"), { maxLength: 3 })).map(([o, args]) => `${o}(${args.join(", ")})`),
    ),
  })).expr;
  await fc.assert(
    fc.asyncProperty(fc.oneof(node, anyText), async (source) => {
      const compiled = await refusedOrDone(() => compileFilter(source, "r"));
      if (compiled) compile(compiled);
    }),
    settings,
  );
});

test("fuzz: the message adapters turn any LLM run into a conversation without failing, in its documented shape", async () => {
  const messages = fc.array(fc.oneof(anyJson, fc.record({ role: anyText, content: anyJson, tool_calls: anyJson }, { requiredKeys: [] })), {
    maxLength: 4,
  });
  const run = fc.record({
    run_type: fc.constantFrom("llm", "chain", "prompt"),
    inputs: fc.oneof(
      anyJson,
      messages.map((m) => ({ messages: m })),
      messages.map((m) => ({ messages: [m] })),
      anyJson.map((p) => ({ prompts: [p] })),
    ),
    outputs: fc.oneof(
      anyJson,
      anyJson.map((c) => ({ choices: [{ message: c }] })),
      anyJson.map((g) => ({ generations: [[{ message: g }]] })),
    ),
  });
  await fc.assert(
    fc.asyncProperty(run, async (r) => {
      const read = await refusedOrDone(() => toConversation(r));
      // What GET /runs/{id}/conversation checks before answering: a mismatch there is a 500.
      if (read) assert.deepEqual(conversation.safeParse(read).error?.issues, undefined);
    }),
    settings,
  );
});
