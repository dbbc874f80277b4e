import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake saw: for asserting the request we send (model, JSON mode, auth header). */
export interface SeenRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[]; response_format?: { type: string } };
}

/**
 * A local OpenAI-compatible /chat/completions server for tests, with deterministic answers chosen
 * by the request: the system message says what is drafted; markers in the user message pick
 * failures (UPSTREAM_500, NOT_JSON, WRONG_SHAPE, FENCED).
 */
export async function startFakeOpenAI(): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await read(req)) as SeenRequest["body"];
    seen.push({ path: req.url ?? "", authorization: req.headers.authorization, body });
    const system = body.messages.find((m) => m.role === "system")?.content ?? "";
    const user = body.messages.find((m) => m.role === "user")?.content ?? "";
    if (user.includes("UPSTREAM_500")) {
      res.writeHead(500, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "upstream exploded" } }));
    }
    let content: string;
    if (user.includes("NOT_JSON")) content = "Sure! Here is your prompt: be nice.";
    else if (user.includes("WRONG_SHAPE")) content = JSON.stringify({ prompt: "no messages here" });
    else if (system.startsWith("You write prompt templates")) {
      content = JSON.stringify({
        messages: [
          { role: "system", content: 'You answer questions about {topic} precisely. Output JSON like {{"answer": ...}}.' },
          { role: "user", content: "{question}" },
        ],
      });
    } else if (system.startsWith("You write LLM-as-judge")) {
      content = JSON.stringify({
        messages: [
          { role: "system", content: "You grade answers for correctness." },
          { role: "user", content: "Question: {inputs}\nAnswer: {outputs}\nExpected: {reference_outputs}" },
        ],
        output_schema: {
          type: "object",
          title: "correctness",
          properties: { correct: { type: "boolean", description: "is it right" }, comment: { type: "string" } },
          required: ["correct"],
        },
      });
    } else {
      const count = Number(/Write (\d+) examples/.exec(user)?.[1] ?? 3);
      content = JSON.stringify({
        examples: Array.from({ length: count }, (_, i) => ({
          inputs: { question: `What is ${i} + ${i}?` },
          outputs: { answer: String(i + i) },
        })),
      });
    }
    if (user.includes("FENCED")) content = "```json\n" + content + "\n```";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "chatcmpl-test",
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((r) => server.close(() => r())) };
}
