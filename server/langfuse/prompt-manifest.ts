import { z } from "zod";

/**
 * A Langfuse prompt version ⇄ a prompt commit's manifest. The manifest is the LangChain constructor
 * form the hub and the `langsmith` SDKs load (mustache templates, since Langfuse's variables are
 * `{{name}}`), and carries Langfuse's own form in the template's `metadata.langfuse`, so a version
 * reads back exactly as created. A commit pushed through the LangSmith API (no `metadata.langfuse`)
 * is read from its templates.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export const chatMessage = z.union([
  z.looseObject({ type: z.literal("placeholder"), name: z.string().min(1) }),
  z.looseObject({ type: z.literal("chatmessage").optional(), role: z.string().min(1), content: z.string() }),
]);
export type ChatMessage = z.infer<typeof chatMessage>;

export interface LangfuseContent {
  type: "text" | "chat";
  prompt: string | ChatMessage[];
  config: unknown;
}

const lc = (id: string[], kwargs: Obj) => ({ lc: 1, type: "constructor", id, kwargs });

/** `{{name}}` variables in order of first use. */
function variables(template: string): string[] {
  const found: string[] = [];
  for (const m of template.matchAll(/\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g)) if (!found.includes(m[1])) found.push(m[1]);
  return found;
}

const template = (text: string) =>
  lc(["langchain", "prompts", "prompt", "PromptTemplate"], {
    input_variables: variables(text),
    template: text,
    template_format: "mustache",
  });

const MESSAGE_CLASS: Record<string, string> = {
  system: "SystemMessagePromptTemplate",
  user: "HumanMessagePromptTemplate",
  assistant: "AIMessagePromptTemplate",
};

export function manifestOf(content: LangfuseContent): Obj {
  const metadata = { langfuse: content };
  if (typeof content.prompt === "string") {
    return { ...template(content.prompt), kwargs: { ...template(content.prompt).kwargs, metadata } };
  }
  const messages = content.prompt.map((m) =>
    m.type === "placeholder"
      ? lc(["langchain", "prompts", "chat", "MessagesPlaceholder"], { variable_name: m.name })
      : lc(["langchain", "prompts", "chat", MESSAGE_CLASS[m.role] ?? "ChatMessagePromptTemplate"], {
          prompt: template(m.content),
          ...(MESSAGE_CLASS[m.role] ? {} : { role: m.role }),
        }),
  );
  const inputs = [...new Set(content.prompt.flatMap((m) => (m.type === "placeholder" ? [m.name] : variables(m.content))))];
  return lc(["langchain", "prompts", "chat", "ChatPromptTemplate"], {
    input_variables: inputs,
    messages,
    template_format: "mustache",
    metadata,
  });
}

const ROLE_OF_CLASS: Record<string, string> = {
  SystemMessagePromptTemplate: "system",
  HumanMessagePromptTemplate: "user",
  AIMessagePromptTemplate: "assistant",
};

/** An f-string template's `{name}` as Langfuse's `{{name}}`; `{{`/`}}` escapes become single braces. */
function asMustache(text: string, format: unknown): string {
  if (format === "mustache") return text;
  return text.replace(/\{\{|\}\}|\{([A-Za-z_]\w*)\}/g, (all, name: string | undefined) => (name ? `{{${name}}}` : all[0]));
}

/** The Langfuse form of any prompt manifest: its own when it has one, else read from the LangChain templates. */
export function contentOf(manifest: unknown): LangfuseContent {
  const kwargs = isObj(manifest) && isObj(manifest.kwargs) ? manifest.kwargs : {};
  const own = isObj(kwargs.metadata) ? kwargs.metadata.langfuse : undefined;
  if (isObj(own) && (own.type === "text" || own.type === "chat"))
    return { type: own.type, prompt: own.prompt as LangfuseContent["prompt"], config: own.config ?? {} };
  if (typeof kwargs.template === "string") return { type: "text", prompt: asMustache(kwargs.template, kwargs.template_format), config: {} };
  const list = Array.isArray(kwargs.messages) ? kwargs.messages : [];
  const prompt = list.filter(isObj).map((m): ChatMessage => {
    const cls = Array.isArray(m.id) ? String(m.id[m.id.length - 1]) : "";
    const k = isObj(m.kwargs) ? m.kwargs : {};
    if (cls === "MessagesPlaceholder") return { type: "placeholder", name: String(k.variable_name ?? "") };
    const inner = isObj(k.prompt) && isObj(k.prompt.kwargs) ? k.prompt.kwargs : {};
    const text = typeof inner.template === "string" ? inner.template : typeof k.content === "string" ? k.content : "";
    return { type: "chatmessage", role: ROLE_OF_CLASS[cls] ?? String(k.role ?? "user"), content: asMustache(text, inner.template_format) };
  });
  return { type: "chat", prompt, config: {} };
}
