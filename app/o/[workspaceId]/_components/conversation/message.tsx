"use client";

import { useState } from "react";
import type { Message } from "@/server/llm/conversation-types";
import { BlockView } from "./blocks";
import { anchorId, JumpLink, useToolLinks } from "./links";
import styles from "./conversation.module.css";

const LONG_SYSTEM = 1500;

const textLength = (message: Message) =>
  message.blocks.reduce((n, b) => n + (b.type === "text" || b.type === "reasoning" ? b.text.length : 0), 0);

function Blocks({ message }: { message: Message }) {
  return (
    <div className={styles.body}>
      {message.blocks.length === 0 && <span className={styles.dim}>(empty)</span>}
      {message.blocks.map((block, i) => (
        <BlockView key={i} block={block} asData={message.role === "tool"} />
      ))}
    </div>
  );
}

export function MessageView({ message }: { message: Message }) {
  const links = useToolLinks();
  const [expanded, setExpanded] = useState(false);
  const resultOf = message.role === "tool" ? message.toolCallId : undefined;
  if (message.role === "reasoning") {
    return (
      <details className={styles.message} data-role="reasoning">
        <summary className={styles.head}>
          <span className={styles.role}>reasoning</span>
          <span className={styles.dim}>{textLength(message).toLocaleString()} characters</span>
        </summary>
        <Blocks message={message} />
      </details>
    );
  }
  const clamp = message.role === "system" && !expanded && textLength(message) > LONG_SYSTEM;
  return (
    <article
      className={styles.message}
      data-role={message.role}
      data-testid="message"
      id={resultOf ? anchorId(links.prefix, "result", resultOf) : undefined}
      data-active={resultOf && links.active === resultOf ? "" : undefined}
    >
      <header className={styles.head}>
        <span className={styles.role}>{message.role}</span>
        {(message.name ?? (resultOf && links.names.get(resultOf))) && (
          <span className={styles.name} data-testid="tool-result-name">
            {message.name ?? links.names.get(resultOf!)}
          </span>
        )}
        {resultOf && <code className={styles.dim}>{resultOf}</code>}
        {resultOf && links.calls.has(resultOf) && (
          <JumpLink to="call" id={resultOf}>
            ↑ call
          </JumpLink>
        )}
      </header>
      <div className={clamp ? styles.clamped : undefined}>
        <Blocks message={message} />
      </div>
      {message.role === "system" && textLength(message) > LONG_SYSTEM && (
        <button type="button" className={styles.more} onClick={() => setExpanded(!expanded)}>
          {expanded ? "Show less" : "Show all"}
        </button>
      )}
    </article>
  );
}
