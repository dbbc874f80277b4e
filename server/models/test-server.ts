import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the providers are sent (either API's fields this server reads, and the rest as sent). */
export interface RequestBody extends Record<string, unknown> {
  model?: string;
  system?: unknown;
  messages?: { role: string; content: unknown }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: { name?: string; input_schema?: JsonSchema; function?: { name: string; parameters?: JsonSchema } }[];
  tool_choice?: { type?: string; name?: string; function?: { name?: string } } | string;
}

interface JsonSchema {
  properties?: Record<string, { type?: string; enum?: string[]; maximum?: number }>;
}

/** A request the test server received, for asserting what we send (model, messages, stream, auth). */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: RequestBody;
}

export interface TestModelServer {
  /** `http://127.0.0.1:<port>`: OpenAI-compatible at `/v1/chat/completions`, Anthropic at `/v1/messages`. */
  url: string;
  requests: RecordedRequest[];
  /** The next `times` requests answer `status` (with `Retry-After: retryAfter` seconds when given). */
  /**
   * The next `times` requests answer `status`; with `matching`, only requests whose body contains
   * that text (so work of other tests running in the background does not take the failure).
   */
  failNext: (status: number, options?: { times?: number; retryAfter?: number; matching?: string }) => void;
  /** Delay between streamed chunks, in milliseconds (default 0). */
  chunkDelayMs: number;
  /** The arguments of a forced tool call (an evaluator's verdict); by default made from the tool's schema. */
  verdict: Record<string, unknown> | null;
  close: () => Promise<void>;
}

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p?.text ?? "").join(" ") : "";

/**
 * The answer is deterministic: `You said: <the last user message>`, streamed a word at a time. A
 * system message asking for JSON (`Answer in JSON`) gets `{"score": 1, "reasoning": "…"}` instead.
 * Usage counts words: every message's words in, the chunks out.
 */
function answerFor(body: RequestBody, verdict: Record<string, unknown> | null): { words: string[]; promptTokens: number } {
  const messages = [...(body.system ? [{ role: "system", content: body.system }] : []), ...(body.messages ?? [])];
  const system = messages.find((m) => m.role === "system");
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const tool = forcedTool(body, verdict);
  const text = tool
    ? tool.args
    : /Answer in JSON/.test(textOf(system?.content))
      ? JSON.stringify({ score: 1, reasoning: "The answer is correct." })
      : `You said: ${textOf(lastUser?.content)}`;
  const words = text.split(/(?<= )/);
  const promptTokens = messages.reduce((n, m) => n + textOf(m.content).split(/\s+/).filter(Boolean).length, 0);
  return { words, promptTokens };
}

/**
 * The tool a request forces (OpenAI `tool_choice: {type: "function", function: {name}}`, Anthropic
 * `{type: "tool", name}`) and its arguments: `verdict` when set, else each property's top value (a
 * number's maximum or 1, true, an enum's first, a sentence).
 */
function forcedTool(body: RequestBody, verdict: Record<string, unknown> | null): { name: string; args: string } | null {
  const choice = body.tool_choice;
  const name = typeof choice === "object" ? (choice.function?.name ?? (choice.type === "tool" ? choice.name : undefined)) : undefined;
  if (!name) return null;
  const tool = body.tools?.find((t) => (t.function?.name ?? t.name) === name);
  const properties = (tool?.function?.parameters ?? tool?.input_schema)?.properties ?? {};
  const made = Object.fromEntries(
    Object.entries(properties).map(([key, p]) => [
      key,
      p.enum
        ? p.enum[0]
        : p.type === "boolean"
          ? true
          : p.type === "number" || p.type === "integer"
            ? (p.maximum ?? 1)
            : "The answer is correct.",
    ]),
  );
  return { name, args: JSON.stringify(verdict ?? made) };
}

async function readJson(req: IncomingMessage): Promise<RequestBody> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as RequestBody;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A real HTTP server on loopback that speaks the OpenAI chat completions and Anthropic messages
 * APIs, streaming server-sent events with usage, for tests and benchmarks. It records requests and
 * can be told to fail (429 with Retry-After, 500).
 */
export async function startTestModelServer(): Promise<TestModelServer> {
  const requests: RecordedRequest[] = [];
  const failures: { status: number; retryAfter?: number; matching?: string }[] = [];
  const self = { chunkDelayMs: 0, verdict: null } as TestModelServer;

  const sse = async (res: ServerResponse, events: [string | null, unknown][]) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const [event, data] of events) {
      res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
      if (self.chunkDelayMs) await sleep(self.chunkDelayMs);
    }
    res.end();
  };

  const openai = async (body: RequestBody, res: ServerResponse) => {
    const { words, promptTokens } = answerFor(body, self.verdict);
    const usage = { prompt_tokens: promptTokens, completion_tokens: words.length, total_tokens: promptTokens + words.length };
    const base = { id: "chatcmpl-test", created: 0, model: body.model };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: words.join("") }, finish_reason: "stop" }],
          usage,
        }),
      );
    }
    const chunk = (delta: unknown, finish: string | null = null) => ({
      ...base,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const tool = forcedTool(body, self.verdict);
    const call = (args: string, first = false) => ({
      tool_calls: [
        {
          index: 0,
          ...(first ? { id: "call_test", type: "function" } : {}),
          function: { ...(first ? { name: tool!.name } : {}), arguments: args },
        },
      ],
    });
    await sse(res, [
      [null, chunk({ role: "assistant", content: tool ? null : "" })],
      ...(tool
        ? [[null, chunk(call("", true))] as [null, unknown], ...words.map((w): [null, unknown] => [null, chunk(call(w))])]
        : words.map((w): [null, unknown] => [null, chunk({ content: w })])),
      [null, chunk({}, tool ? "tool_calls" : "stop")],
      ...(body.stream_options?.include_usage
        ? [[null, { ...base, object: "chat.completion.chunk", choices: [], usage }] as [null, unknown]]
        : []),
      [null, "[DONE]"],
    ]);
  };

  const anthropic = async (body: RequestBody, res: ServerResponse) => {
    const { words, promptTokens } = answerFor(body, self.verdict);
    const tool = forcedTool(body, self.verdict);
    const message = { id: "msg_test", type: "message", role: "assistant", model: body.model };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          ...message,
          content: [{ type: "text", text: words.join("") }],
          stop_reason: "end_turn",
          usage: { input_tokens: promptTokens, output_tokens: words.length },
        }),
      );
    }
    await sse(res, [
      [
        "message_start",
        { type: "message_start", message: { ...message, content: [], usage: { input_tokens: promptTokens, output_tokens: 0 } } },
      ],
      [
        "content_block_start",
        {
          type: "content_block_start",
          index: 0,
          content_block: tool ? { type: "tool_use", id: "toolu_test", name: tool.name, input: {} } : { type: "text", text: "" },
        },
      ],
      ...words.map((text): [string, unknown] => [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 0,
          delta: tool ? { type: "input_json_delta", partial_json: text } : { type: "text_delta", text },
        },
      ]),
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: words.length } }],
      ["message_stop", { type: "message_stop" }],
    ]);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      requests.push({ path: req.url ?? "", headers: req.headers, body });
      const index = failures.findIndex((f) => !f.matching || JSON.stringify(body).includes(f.matching));
      const failure = index < 0 ? undefined : failures.splice(index, 1)[0];
      if (failure) {
        res.writeHead(failure.status, {
          "content-type": "application/json",
          ...(failure.retryAfter !== undefined ? { "retry-after": String(failure.retryAfter) } : {}),
        });
        return res.end(JSON.stringify({ error: { message: `told to answer ${failure.status}` } }));
      }
      if (req.url?.endsWith("/chat/completions")) return openai(body, res);
      if (req.url?.endsWith("/messages")) return anthropic(body, res);
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
    })().catch((error: unknown) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(self, {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (status: number, options: { times?: number; retryAfter?: number; matching?: string } = {}) => {
      for (let i = 0; i < (options.times ?? 1); i++) failures.push({ status, retryAfter: options.retryAfter, matching: options.matching });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
