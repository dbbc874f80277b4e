"use client";

import { JsonView } from "./json-view";
import styles from "./conversation.module.css";

import { toolsOffered, type ToolDefinition } from "@/server/llm/tools";

export { toolsOffered };

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
