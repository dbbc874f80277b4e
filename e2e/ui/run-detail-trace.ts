/**
 * The trace the run-detail and workspace-pages browser tests read: a chain with OpenAI-, Anthropic-
 * and native-format LLM runs (script and onerror markup in their content) and a failed tool run,
 * sent with the real langsmith client.
 */
import { Client, RunTree } from "langsmith";
import type { Page } from "playwright-core";

export const SCRIPT = "<script>alert(1)</script>";
export const IMG = "<img src=x onerror=alert(1)>";
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAJ0lEQVR4nGN49+4PVRDDCDEoOvoaSWjUoFGDRg0aNYhWBlGChrFBAHgzGkxmzqGpAAAAAElFTkSuQmCC";
export const PROJECT = "ui-support-bot";
export const STACK =
  "TimeoutError: weather API did not answer in 5s\n    at fetchWeather (tools/weather.ts:42:11)\n    at async getWeather (tools/weather.ts:17:5)\n    at async runTool (agent/tools.ts:88:20)";
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface TraceIds {
  trace: string;
  openai: string;
  anthropic: string;
  native: string;
}

/** One trace with an OpenAI-format, an Anthropic-format and a native-format LLM run under a chain. */
export async function sendTrace(serverUrl: string, key: string): Promise<TraceIds> {
  const client = new Client({ apiUrl: serverUrl, apiKey: key });
  const root = new RunTree({
    name: "assistant-pipeline",
    run_type: "chain",
    inputs: { question: "Weather in Paris?" },
    client,
    project_name: PROJECT,
    tags: ["ui-e2e"],
  });
  await root.postRun();
  const openai = root.createChild({
    name: "openai-chat",
    run_type: "llm",
    inputs: {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are a weather assistant." },
        { role: "user", content: `What is the weather in Paris? ${SCRIPT} ${IMG}` },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_weather", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_weather", content: '{"temperature_c":18,"sky":"clear"}' },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "The current weather in a city.",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ],
    },
    extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
  });
  await openai.postRun();
  await wait(40);
  openai.addEvent({ name: "new_token", kwargs: { token: "It" } });
  await wait(25);
  openai.addEvent({ name: "new_token", kwargs: { token: " is" } });
  await openai.end({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: "stop",
        message: {
          role: "assistant",
          content:
            'It is **18 °C** and clear in Paris.\n\n- Bring *sunglasses*\n- See [forecast](https://example.com/paris)\n\n| day | high | sky |\n|---|--:|---|\n| Mon | 18 °C | clear |\n| Tue | 21 °C | cloudy |\n\n- [x] checked the forecast\n- [ ] book a table\n\n```json\n{"ok": true}\n```',
        },
      },
    ],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: { cached_tokens: 64 } },
  });
  await openai.patchRun();
  const anthropic = root.createChild({
    name: "anthropic-messages",
    run_type: "llm",
    inputs: {
      model: "claude-3-5-sonnet-20241022",
      system: "Answer briefly.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: `Describe this icon ${IMG}` },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
        },
      ],
    },
    extra: { metadata: { ls_model_name: "claude-3-5-sonnet-20241022", ls_provider: "anthropic" } },
  });
  await anthropic.postRun();
  await anthropic.end({
    id: "msg_01",
    type: "message",
    role: "assistant",
    stop_reason: "tool_use",
    content: [
      { type: "thinking", thinking: "The user wants a description of a small square icon.", signature: "sig" },
      { type: "text", text: "A small square icon. Let me check the time too." },
      { type: "tool_use", id: "toolu_time", name: "get_time", input: { tz: "Europe/Paris" } },
    ],
    usage: { input_tokens: 90, output_tokens: 40, cache_read_input_tokens: 10 },
  });
  await anthropic.patchRun();
  const native = root.createChild({
    name: "native-agent",
    run_type: "llm",
    inputs: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: `Search the news ${SCRIPT}` },
            { type: "audio", url: "https://example.com/question.wav", mime_type: "audio/wav" },
          ],
        },
      ],
    },
    extra: { metadata: { ls_model_name: "gpt-4o", ls_provider: "openai" } },
  });
  await native.postRun();
  await native.end({
    messages: [
      {
        role: "assistant",
        content: [
          { type: "reasoning", reasoning: "I should search the web first." },
          { type: "server_tool_call", id: "srv_1", name: "web_search", args: { query: "Paris news" } },
          { type: "server_tool_result", tool_call_id: "srv_1", status: "success", output: { results: ["Seine cleanup finished"] } },
          { type: "text", text: "Top story: the Seine cleanup finished." },
        ],
      },
    ],
  });
  await native.patchRun();
  const failing = root.createChild({ name: "get_weather", run_type: "tool", inputs: { city: "Paris" } });
  await failing.postRun();
  await failing.end(undefined, STACK);
  await failing.patchRun();
  await root.end({ answer: "18 °C and clear" });
  await root.patchRun();
  await client.awaitPendingTraceBatches();
  return { trace: root.trace_id, openai: openai.id, anthropic: anthropic.id, native: native.id };
}

/** Opens a run of the trace by clicking its row in the trace tree; waits for its detail. */
export async function openRun(page: Page, name: string) {
  await page.locator('[data-testid="trace-row"]', { hasText: name }).first().click();
  await page.locator('[data-testid="run-detail"] h2', { hasText: name }).waitFor();
  await page.getByRole("tab", { name: "Conversation" }).click();
  await page.locator('[data-testid="conversation"]').waitFor();
}
