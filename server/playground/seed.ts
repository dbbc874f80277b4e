import { z } from "zod";
import type { Sql } from "../db/client";
import { AppError, notFound } from "../core/errors";
import { chatPromptManifest, templateMessagesOf, templateVariables } from "../generate/manifest";
import { toConversation, type Message } from "../llm/conversation";
import { toolsOffered } from "../llm/tools";
import type { ChatMessage, ChatRequest } from "../models/types";
import type { Caller } from "../prompts/access";
import { createCommit, pullCommit } from "../prompts/commits";
import { createRepo, getRepo } from "../prompts/repos";
import { readLlmDetails } from "../runs/llm-details";
import { readRun } from "../runs/read";
import { isObj, type Obj } from "../llm/formats/common";

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A canonical message in OpenAI's chat shape: text and media parts, tool calls, tool results. */
function toChatMessage(m: Message): ChatMessage | null {
  if (m.role === "reasoning") return null;
  const parts = m.blocks.flatMap((b): Obj[] => {
    if (b.type === "text") return [{ type: "text", text: b.text }];
    if (b.type === "image") {
      const url = b.source.url ?? (b.source.base64 ? `data:${b.source.mimeType ?? "image/png"};base64,${b.source.base64}` : null);
      return url ? [{ type: "image_url", image_url: { url } }] : [];
    }
    if (b.type === "json") return [{ type: "text", text: JSON.stringify(b.value) }];
    return [];
  });
  const calls = m.blocks.flatMap((b, i) =>
    b.type === "tool_call"
      ? [{ id: b.id ?? `call_${i}`, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.args ?? {}) } }]
      : [],
  );
  const content = parts.every((p) => p.type === "text") ? parts.map((p) => p.text as string).join("\n") : parts;
  return {
    role: m.role,
    content: calls.length && content === "" ? null : content,
    ...(m.name ? { name: m.name } : {}),
    ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
    ...(calls.length ? { tool_calls: calls } : {}),
  } as ChatMessage;
}

/**
 * "Open in playground" from a run: its input messages (any supported format) in the canonical
 * chat shape, the tools it offered, its model and parameters, and the answer it gave.
 */
export async function seedFromRun(db: Sql, workspaceId: string, runId: string) {
  const [run, details] = await Promise.all([readRun(db, workspaceId, runId), readLlmDetails(db, workspaceId, runId)]);
  if (!run) throw notFound(`Run ${runId} not found.`);
  const conversation = toConversation(run as { run_type: string; inputs: unknown; outputs: unknown });
  const params = isObj(run.extra) && isObj(run.extra.invocation_params) ? run.extra.invocation_params : {};
  const tools = toolsOffered(run.inputs, run.extra).map((t) => ({
    type: "function" as const,
    function: {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      ...(isObj(t.parameters) ? { parameters: t.parameters } : {}),
    },
  }));
  const stop = Array.isArray(params.stop)
    ? params.stop.filter((s): s is string => typeof s === "string")
    : typeof params.stop === "string"
      ? [params.stop]
      : null;
  const request: ChatRequest = {
    model: details?.model ?? (typeof params.model === "string" ? params.model : ""),
    messages: conversation.input.map(toChatMessage).filter((m): m is ChatMessage => m !== null),
    tools: tools.length ? tools : null,
    tool_choice: params.tool_choice ?? undefined,
    response_format: isObj(params.response_format) ? params.response_format : null,
    temperature: num(params.temperature),
    max_tokens: num(params.max_tokens) ?? num(params.max_output_tokens) ?? num(params.maxTokens),
    stop,
  };
  const answer = conversation.output.flatMap((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []))).join("\n");
  return { request, variables: [] as string[], source: { run_id: run.id }, previous_answer: answer || null };
}

/** "Open in playground" from a prompt commit: its messages as templates, their `{variables}` as inputs. */
export async function seedFromPrompt(db: Sql, caller: Caller, owner: string, repo: string, ref: string) {
  const commit = await pullCommit(db, caller, owner, repo, ref, true);
  const messages = templateMessagesOf(commit.manifest).map((m) => ({ role: m.role as ChatMessage["role"], content: m.content }));
  const variables = [...new Set(messages.flatMap((m) => templateVariables(m.content)))];
  const request: ChatRequest = { model: "", messages };
  return { request, variables, source: { prompt: `${owner}/${repo}:${commit.commit_hash.slice(0, 8)}` }, previous_answer: null };
}

export const saveAsCommit = z.object({
  repo: z.string().min(1).max(100),
  messages: z
    .array(z.object({ role: z.string(), content: z.string() }))
    .min(1)
    .max(200),
  description: z.string().max(10_000).nullish(),
});

/** "Save as prompt commit": the variant's text messages as a chat prompt, committed to a prompt of the workspace (made if new). */
export async function saveAsPromptCommit(db: Sql, caller: Caller, input: z.infer<typeof saveAsCommit>) {
  const { manifest } = chatPromptManifest(input.messages);
  try {
    await getRepo(db, caller, "-", input.repo);
  } catch (error) {
    if (!(error instanceof AppError && error.status === 404)) throw error;
    await createRepo(db, caller, { handle: input.repo, isPublic: false });
  }
  return createCommit(db, caller, "-", input.repo, { manifest, description: input.description ?? "From the playground" });
}
