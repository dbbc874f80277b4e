import { randomUUID } from "node:crypto";
import { dottedStamp, formatMicros } from "../server/core/time";

const SYSTEM_PROMPT =
  "You are a helpful travel assistant. Answer briefly, cite the forecast you used, and say when you are unsure. ".repeat(9);
const ANSWER = "It is raining in Paris this afternoon, with clearer skies expected by the evening. ".repeat(6);
const HOURLY = Array.from({ length: 24 }, (_, h) => ({
  hour: `${String(h).padStart(2, "0")}:00`,
  sky: h < 14 ? "rain" : "clouds",
  celsius: 11 + (h % 4),
  wind_kmh: 14 + h,
}));

/**
 * One realistic trace (about 2 KB of JSON per run on average, as the benchmark asks): an agent chain with LLM calls (OpenAI messages, usage) and tool calls.
 * With `llm: false` the LLM calls become chain runs of the same size (same messages, the usage under
 * another key, no provider metadata), so nothing in the trace gets LLM processing.
 */
export function makeTrace(project: string, llmCalls = 4, tools = 5, options: { llm?: boolean } = {}): Record<string, unknown>[] {
  const llmRuns = options.llm ?? true;
  const start = BigInt(Date.now()) * 1000n;
  const rootId = randomUUID();
  const rootOrder = `${dottedStamp(start)}${rootId}`;
  const runs: Record<string, unknown>[] = [
    {
      id: rootId,
      trace_id: rootId,
      dotted_order: rootOrder,
      name: "agent",
      run_type: "chain",
      session_name: project,
      start_time: formatMicros(start),
      end_time: formatMicros(start + 2_000_000n),
      inputs: { question: "What is the weather in Paris and should I bring an umbrella?" },
      outputs: { answer: "Yes, bring one." },
      extra: { metadata: { user: "bench", thread_id: randomUUID() } },
      tags: ["bench"],
    },
  ];
  for (let i = 0; i < llmCalls + tools; i++) {
    const id = randomUUID();
    const t = start + BigInt(i + 1) * 1000n;
    const llm = i < llmCalls;
    runs.push({
      id,
      trace_id: rootId,
      parent_run_id: rootId,
      dotted_order: `${rootOrder}.${dottedStamp(t)}${id}`,
      name: llm ? (llmRuns ? "ChatOpenAI" : "FormatChat") : "get_weather",
      run_type: llm ? (llmRuns ? "llm" : "chain") : "tool",
      session_name: project,
      start_time: formatMicros(t),
      end_time: formatMicros(t + 400_000n),
      inputs: llm
        ? {
            messages: [
              { role: "system", content: SYSTEM_PROMPT },
              { role: "user", content: `Step ${i}: what is the weather in Paris today?` },
            ],
            model: "gpt-4o-mini",
          }
        : { city: "Paris" },
      outputs: llm
        ? {
            choices: [{ message: { role: "assistant", content: ANSWER } }],
            [llmRuns ? "usage" : "stats"]: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
          }
        : { city: "Paris", forecast: "rain", celsius: 12, hourly: HOURLY },
      extra: {
        metadata: llm
          ? llmRuns
            ? { ls_provider: "openai", ls_model_name: "gpt-4o-mini" }
            : { ls_component: "openai", ls_format_name: "gpt-4o-mini" }
          : {},
      },
      events: llm ? [{ name: "new_token", time: formatMicros(t + 150_000n) }] : [],
    });
  }
  return runs;
}

/** Multipart body in the SDK's layout: the run without its big fields, then one part per field. */
export function multipartOf(runs: Record<string, unknown>[]): { body: Buffer; contentType: string } {
  const boundary = "----BenchBoundary" + randomUUID().replace(/-/g, "");
  const chunks: string[] = [];
  const part = (name: string, value: unknown) => {
    const text = JSON.stringify(value);
    chunks.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json; length=${Buffer.byteLength(text)}\r\n\r\n${text}\r\n`,
    );
  };
  for (const run of runs) {
    const { inputs, outputs, events, extra, ...rest } = run;
    part(`post.${run.id}`, rest);
    for (const [field, value] of Object.entries({ inputs, outputs, events, extra }))
      if (value !== undefined) part(`post.${run.id}.${field}`, value);
  }
  chunks.push(`--${boundary}--\r\n`);
  return { body: Buffer.from(chunks.join("")), contentType: `multipart/form-data; boundary=${boundary}` };
}
