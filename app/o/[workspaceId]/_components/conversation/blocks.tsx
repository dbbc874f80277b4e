"use client";

import type { Block } from "@/server/llm/conversation-types";
import { JsonView } from "./json-view";
import { anchorId, JumpLink, useToolLinks } from "./links";
import { Markdown } from "./markdown";
import { Media } from "./media";
import styles from "./conversation.module.css";

/** Tool arguments often arrive as a JSON string; show the parsed value when it is one. */
export function parsedJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (!(text.startsWith("{") || text.startsWith("["))) return value;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}

function ToolCall({ id, name, args, server }: { id: string | null; name: string; args: unknown; server?: boolean }) {
  const links = useToolLinks();
  const answered = id !== null && links.results.has(id);
  return (
    <div
      className={styles.toolCall}
      id={id ? anchorId(links.prefix, "call", id) : undefined}
      data-active={id !== null && links.active === id ? "" : undefined}
      data-testid="tool-call"
    >
      <div className={styles.toolHead}>
        <span className={styles.toolBadge}>{server ? "server tool call" : "tool call"}</span>
        <span className={styles.toolName}>{name}</span>
        {id && <code className={styles.dim}>{id}</code>}
        {id &&
          (answered ? (
            <JumpLink to="result" id={id}>
              result ↓
            </JumpLink>
          ) : (
            <span className={styles.dim}>no result</span>
          ))}
      </div>
      <JsonView value={parsedJson(args)} />
    </div>
  );
}

function ServerToolResult({ toolCallId, output, failed }: { toolCallId: string | null; output: unknown; failed?: boolean }) {
  const links = useToolLinks();
  return (
    <div
      className={styles.toolCall}
      id={toolCallId ? anchorId(links.prefix, "result", toolCallId) : undefined}
      data-active={toolCallId !== null && links.active === toolCallId ? "" : undefined}
    >
      <div className={styles.toolHead}>
        <span className={styles.toolBadge}>server tool result</span>
        {failed && <span className="badge badge-error">error</span>}
        {toolCallId && <code className={styles.dim}>{toolCallId}</code>}
        {toolCallId && links.calls.has(toolCallId) && (
          <JumpLink to="call" id={toolCallId}>
            ↑ call
          </JumpLink>
        )}
      </div>
      <JsonView value={parsedJson(output)} />
    </div>
  );
}

/** One content block; `asData` shows JSON-looking text (tool results) as a JSON tree. */
export function BlockView({ block, asData }: { block: Block; asData?: boolean }) {
  switch (block.type) {
    case "text": {
      const data = asData ? parsedJson(block.text) : block.text;
      return typeof data === "string" ? <Markdown text={data} /> : <JsonView value={data} />;
    }
    case "reasoning":
      return (
        <details className={styles.reasoning}>
          <summary>Reasoning</summary>
          <Markdown text={block.text} />
        </details>
      );
    case "image":
    case "audio":
    case "video":
    case "file":
      return <Media kind={block.type} source={block.source} name={block.name} />;
    case "tool_call":
      return <ToolCall id={block.id} name={block.name} args={block.args} />;
    case "server_tool_call":
      return <ToolCall id={block.id} name={block.name} args={block.args} server />;
    case "server_tool_result":
      return (
        <ServerToolResult toolCallId={block.toolCallId} output={block.output} failed={(block as { status?: string }).status === "error"} />
      );
    case "json":
      return <JsonView value={block.value} title="Unrecognised part" />;
  }
}
