/** LangChain-serialized prompt manifests (the `lc` constructor form the hub and SDKs load). */
import { isObj } from "../llm/formats/common";

type Lc = { lc: 1; type: "constructor"; id: string[]; kwargs: Record<string, unknown> };
const lc = (id: string[], kwargs: Record<string, unknown>): Lc => ({ lc: 1, type: "constructor", id, kwargs });

const MESSAGE_CLASS: Record<string, string> = {
  system: "SystemMessagePromptTemplate",
  user: "HumanMessagePromptTemplate",
  human: "HumanMessagePromptTemplate",
  assistant: "AIMessagePromptTemplate",
  ai: "AIMessagePromptTemplate",
};

/** f-string variables in order of first use: `{name}`, but not the escaped `{{name}}`. */
export function templateVariables(template: string): string[] {
  const found: string[] = [];
  for (const m of template.replace(/\{\{|\}\}/g, "").matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    if (!found.includes(m[1])) found.push(m[1]);
  }
  return found;
}

export interface TemplateMessage {
  role: string;
  content: string;
}

/** A ChatPromptTemplate manifest; with `schema`, a StructuredPrompt whose output follows it. */
export function chatPromptManifest(
  messages: TemplateMessage[],
  schema?: Record<string, unknown>,
): { manifest: Lc; input_variables: string[] } {
  const all: string[] = [];
  const parts = messages.map((m) => {
    const vars = templateVariables(m.content);
    for (const v of vars) if (!all.includes(v)) all.push(v);
    return lc(["langchain", "prompts", "chat", MESSAGE_CLASS[m.role] ?? "HumanMessagePromptTemplate"], {
      prompt: lc(["langchain", "prompts", "prompt", "PromptTemplate"], {
        input_variables: vars,
        template: m.content,
        template_format: "f-string",
      }),
    });
  });
  const manifest = schema
    ? lc(["langchain_core", "prompts", "structured", "StructuredPrompt"], {
        input_variables: all,
        messages: parts,
        schema_: schema,
        structured_output_kwargs: {},
      })
    : lc(["langchain", "prompts", "chat", "ChatPromptTemplate"], { input_variables: all, messages: parts });
  return { manifest, input_variables: all };
}

const ROLE_OF_CLASS: Record<string, string> = {
  SystemMessagePromptTemplate: "system",
  HumanMessagePromptTemplate: "user",
  AIMessagePromptTemplate: "assistant",
  SystemMessage: "system",
  HumanMessage: "user",
  AIMessage: "assistant",
};

/**
 * The messages of a chat prompt manifest (the inverse of chatPromptManifest): LangChain message
 * templates, plain messages, or `[role, template]` pairs; text templates only. Empty for a
 * manifest that is not a chat prompt.
 */
export function templateMessagesOf(manifest: unknown): TemplateMessage[] {
  const kwargs = isObj(manifest) && isObj(manifest.kwargs) ? manifest.kwargs : {};
  const list = Array.isArray(kwargs.messages) ? kwargs.messages : [];
  return list.flatMap((m): TemplateMessage[] => {
    if (Array.isArray(m) && typeof m[0] === "string" && typeof m[1] === "string")
      return [{ role: m[0] === "human" ? "user" : m[0] === "ai" ? "assistant" : m[0], content: m[1] }];
    if (!isObj(m)) return [];
    if (typeof m.role === "string" && typeof m.content === "string") return [{ role: m.role, content: m.content }];
    const cls = Array.isArray(m.id) ? String(m.id[m.id.length - 1]) : "";
    const k = isObj(m.kwargs) ? m.kwargs : {};
    const prompt = isObj(k.prompt) && isObj(k.prompt.kwargs) ? k.prompt.kwargs : k;
    const text = typeof prompt.template === "string" ? prompt.template : typeof k.content === "string" ? k.content : null;
    return text === null ? [] : [{ role: ROLE_OF_CLASS[cls] ?? "user", content: text }];
  });
}

/** `{name}` f-string variables filled in from `values` (`{{` and `}}` are literal braces; unknown names stay as written). */
export function fillTemplate(text: string, values: Record<string, unknown>): string {
  return text.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string | undefined) => {
    if (name === undefined) return m[0];
    const value = values[name];
    return value === undefined ? m : typeof value === "string" ? value : JSON.stringify(value);
  });
}
