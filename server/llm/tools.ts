/** The tools a run offered its model, read from any provider's shape (shared by the API and the UI). */
import { isObj } from "./formats/common";

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: unknown;
}

/**
 * The tools a model was offered, wherever the run's inputs (or invocation parameters) list them:
 * OpenAI `tools` / `functions`, Anthropic `tools` with `input_schema`, Gemini `functionDeclarations`.
 */
export function toolsOffered(inputs: unknown, extra?: unknown): ToolDefinition[] {
  const params = isObj(extra) && isObj(extra.invocation_params) ? extra.invocation_params : {};
  const source = isObj(inputs) ? inputs : {};
  const list = [source.tools, source.functions, params.tools, params.functions].find(Array.isArray) as unknown[] | undefined;
  if (!list) return [];
  return list.flatMap((item): ToolDefinition[] => {
    if (!isObj(item)) return [];
    if (Array.isArray(item.functionDeclarations)) return toolsOffered({ tools: item.functionDeclarations });
    const fn = isObj(item.function) ? item.function : item;
    if (typeof fn.name !== "string") return [];
    return [
      {
        name: fn.name,
        description: typeof fn.description === "string" ? fn.description : undefined,
        parameters: fn.parameters ?? fn.input_schema ?? item.input_schema,
      },
    ];
  });
}
