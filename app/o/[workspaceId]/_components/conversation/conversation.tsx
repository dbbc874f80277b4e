"use client";

import { useId, useMemo, useState } from "react";
import type { Conversation, ConversationFormat, Diagnostic, Message } from "@/server/llm/conversation-types";
import { JsonView } from "./json-view";
import { ToolLinksContext } from "./links";
import { MessageView } from "./message";
import { ToolsOffered, toolsOffered } from "./tools";
import styles from "./conversation.module.css";

const FORMAT_LABEL: Record<ConversationFormat, string> = {
  native: "LangSmith messages",
  openai: "OpenAI chat",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic",
  gemini: "Gemini",
  langchain: "LangChain",
  other: "Other messages",
  unknown: "Unrecognised format",
};

function toolIds(messages: Message[]) {
  const calls = new Set<string>();
  const results = new Set<string>();
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role === "tool" && message.toolCallId) results.add(message.toolCallId);
    for (const block of message.blocks) {
      if ((block.type === "tool_call" || block.type === "server_tool_call") && block.id) {
        calls.add(block.id);
        names.set(block.id, block.name);
      }
      if (block.type === "server_tool_result" && block.toolCallId) results.add(block.toolCallId);
    }
  }
  return { calls, results, names };
}

export function Diagnostics({ items }: { items: Diagnostic[] }) {
  if (items.length === 0) return null;
  return (
    <div className={styles.diagnostics} role="status">
      <strong>{items.length === 1 ? "1 problem" : `${items.length} problems`} reading these messages</strong>
      <ul>
        {items.map((d, i) => (
          <li key={i}>
            <code>{d.path}</code> {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Part({ title, messages }: { title: string; messages: Message[] }) {
  if (messages.length === 0) return null;
  return (
    <section className={styles.part}>
      <h4 className={styles.partTitle}>
        {title} <span className={styles.dim}>{messages.length}</span>
      </h4>
      {messages.map((message, i) => (
        <MessageView key={i} message={message} />
      ))}
    </section>
  );
}

/**
 * A run's messages as a conversation. When the format is not recognised, the raw inputs and
 * outputs (when given) are shown as JSON instead.
 */
export function ConversationView({
  conversation,
  raw,
}: {
  conversation: Conversation;
  raw?: { inputs?: unknown; outputs?: unknown; extra?: unknown };
}) {
  const prefix = useId().replace(/:/g, "");
  const [active, setActive] = useState<string | null>(null);
  const { calls, results, names } = useMemo(() => toolIds([...conversation.input, ...conversation.output]), [conversation]);
  const tools = useMemo(() => toolsOffered(raw?.inputs, raw?.extra), [raw?.inputs, raw?.extra]);
  const empty = conversation.input.length === 0 && conversation.output.length === 0;
  return (
    <ToolLinksContext.Provider value={{ prefix, calls, results, names, active, setActive }}>
      <div className={styles.conversation} data-testid="conversation" data-format={conversation.format}>
        <div className={styles.formatLine}>
          <span className={styles.format}>{FORMAT_LABEL[conversation.format]}</span>
        </div>
        <Diagnostics items={conversation.diagnostics} />
        {empty && raw ? (
          <>
            <JsonView value={raw.inputs ?? null} title="Inputs" />
            <JsonView value={raw.outputs ?? null} title="Outputs" />
          </>
        ) : empty ? (
          <p className={styles.dim}>No messages in this run.</p>
        ) : null}
        <ToolsOffered tools={tools} />
        <Part title="Input" messages={conversation.input} />
        <Part title="Output" messages={conversation.output} />
      </div>
    </ToolLinksContext.Provider>
  );
}
