"use client";

import { JsonView } from "./json-view";
import styles from "./conversation.module.css";

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

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

/** The tools offered to the model, folded: names at a glance, descriptions and schemas on demand. */
export function ToolsOffered({ tools }: { tools: ToolDefinition[] }) {
  if (tools.length === 0) return null;
  return (
    <details className={styles.tools} data-testid="tools-offered">
      <summary>
        <span className={styles.partTitle}>
          Tools <span className={styles.dim}>{tools.length}</span>
        </span>
        <span className={styles.toolNames}>
          {tools.map((t) => (
            <code key={t.name}>{t.name}</code>
          ))}
        </span>
      </summary>
      {tools.map((tool) => (
        <div key={tool.name} className={styles.toolDefinition}>
          <code className={styles.toolName}>{tool.name}</code>
          {tool.description ? <p>{tool.description}</p> : null}
          {tool.parameters !== undefined ? <JsonView value={tool.parameters} title="Parameters" /> : null}
        </div>
      ))}
    </details>
  );
}
