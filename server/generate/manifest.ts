/** LangChain-serialized prompt manifests (the `lc` constructor form the hub and SDKs load). */

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
