"use client";

import type { ChatMessage } from "./stream";
import { TemplateText } from "./template-text";
import styles from "./playground.module.css";

const ROLES: ChatMessage["role"][] = ["system", "user", "assistant", "tool"];
type Part = { type: string; text?: string; image_url?: { url?: string } };
type ToolCall = NonNullable<ChatMessage["tool_calls"]>[number];

/** Arguments as sent are a JSON string: shown indented when they parse. */
const prettyArgs = (args: string) => {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
};

/** An assistant message's tool calls (from the run, or added here): name and JSON arguments, editable. */
function ToolCallsEditor({ calls, label, onChange }: { calls: ToolCall[]; label: string; onChange: (calls: ToolCall[]) => void }) {
  const set = (i: number, change: Partial<ToolCall["function"]>) =>
    onChange(calls.map((c, j) => (j === i ? { ...c, function: { ...c.function, ...change } } : c)));
  return (
    <div className={styles.toolCalls} data-testid="tool-calls">
      {calls.map((call, i) => {
        let problem: string | null = null;
        try {
          JSON.parse(call.function.arguments || "{}");
        } catch {
          problem = "not valid JSON";
        }
        return (
          <div key={i} className={styles.toolCall} data-testid="tool-call">
            <div className={styles.toolCallHead}>
              <span>Tool call</span>
              <input
                className="input mono"
                style={{ flex: 1, minWidth: 0 }}
                value={call.function.name}
                onChange={(e) => set(i, { name: e.target.value })}
                aria-label={`${label} tool call ${i + 1} name`}
              />
              <span className="faint mono" title="Tool call id">
                {call.id}
              </span>
              <button
                type="button"
                className="btn btn-sm btn-ghost"
                onClick={() => onChange(calls.filter((_, j) => j !== i))}
                aria-label={`Remove ${label} tool call ${i + 1}`}
              >
                ✕
              </button>
            </div>
            <textarea
              className={`textarea ${problem ? "input-error" : ""}`}
              rows={Math.min(8, Math.max(2, prettyArgs(call.function.arguments).split("\n").length))}
              defaultValue={prettyArgs(call.function.arguments)}
              onChange={(e) => set(i, { arguments: e.target.value })}
              aria-label={`${label} tool call ${i + 1} arguments`}
              aria-invalid={!!problem}
            />
            {problem && <span className="err-text">Arguments: {problem}</span>}
          </div>
        );
      })}
    </div>
  );
}

/** One message: its role, and its text or its parts (text and images by URL), with move and remove. */
function MessageEditor({
  message,
  index,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  message: ChatMessage;
  index: number;
  count: number;
  onChange: (m: ChatMessage) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}) {
  const parts = Array.isArray(message.content) ? (message.content as Part[]) : null;
  const setParts = (next: Part[]) => onChange({ ...message, content: next as ChatMessage["content"] });
  const label = `Message ${index + 1}`;
  return (
    <div className={styles.message} data-testid="message">
      <div className={styles.messageHead}>
        <select
          className="select"
          value={message.role}
          onChange={(e) => onChange({ ...message, role: e.target.value as ChatMessage["role"] })}
          aria-label={`${label} role`}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {message.tool_calls?.length ? (
          <span className="badge">
            {message.tool_calls.length} tool call{message.tool_calls.length === 1 ? "" : "s"}
          </span>
        ) : null}
        <span className="grow" />
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={index === 0}
          onClick={() => onMove(-1)}
          aria-label={`Move ${label} up`}
        >
          ↑
        </button>
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={index === count - 1}
          onClick={() => onMove(1)}
          aria-label={`Move ${label} down`}
        >
          ↓
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onRemove} aria-label={`Remove ${label}`}>
          ✕
        </button>
      </div>
      {parts ? (
        <>
          {parts.map((p, i) =>
            p.type === "image_url" ? (
              <div key={i} className="row">
                <input
                  className="input grow"
                  value={p.image_url?.url ?? ""}
                  placeholder="Image URL"
                  onChange={(e) => setParts(parts.map((q, j) => (j === i ? { type: "image_url", image_url: { url: e.target.value } } : q)))}
                  aria-label={`${label} image ${i + 1}`}
                />
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => setParts(parts.filter((_, j) => j !== i))}>
                  ✕
                </button>
              </div>
            ) : (
              <TemplateText
                key={i}
                rows={3}
                value={p.text ?? ""}
                onChange={(text) => setParts(parts.map((q, j) => (j === i ? { type: "text", text } : q)))}
                label={`${label} text ${i + 1}`}
              />
            ),
          )}
        </>
      ) : message.tool_calls?.length && !message.content ? null : (
        <TemplateText
          rows={Math.min(10, Math.max(2, String(message.content ?? "").split("\n").length))}
          value={String(message.content ?? "")}
          onChange={(content) => onChange({ ...message, content })}
          label={`${label} content`}
        />
      )}
      {message.role === "tool" && (
        <label className={styles.toolCallHead}>
          Answers tool call
          <input
            className="input mono"
            style={{ flex: 1 }}
            value={message.tool_call_id ?? ""}
            onChange={(e) => onChange({ ...message, tool_call_id: e.target.value })}
            aria-label={`${label} tool call id`}
          />
        </label>
      )}
      {message.tool_calls?.length ? (
        <ToolCallsEditor
          calls={message.tool_calls}
          label={label}
          onChange={(calls) => onChange({ ...message, tool_calls: calls.length ? calls : undefined })}
        />
      ) : null}
      <div className="row">
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          onClick={() =>
            setParts([
              ...(parts ?? (message.content ? [{ type: "text", text: String(message.content) }] : [])),
              { type: "image_url", image_url: { url: "" } },
            ])
          }
        >
          + Image
        </button>
        {parts && (
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setParts([...parts, { type: "text", text: "" }])}>
            + Text
          </button>
        )}
        {message.role === "assistant" && (
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() =>
              onChange({
                ...message,
                tool_calls: [
                  ...(message.tool_calls ?? []),
                  { id: `call_${Date.now().toString(36)}`, type: "function", function: { name: "", arguments: "{}" } },
                ],
              })
            }
          >
            + Tool call
          </button>
        )}
      </div>
    </div>
  );
}

/** The messages of a variant: edit, reorder, add, remove. */
export function MessagesEditor({ messages, onChange }: { messages: ChatMessage[]; onChange: (m: ChatMessage[]) => void }) {
  const move = (i: number, delta: -1 | 1) => {
    const next = [...messages];
    [next[i], next[i + delta]] = [next[i + delta], next[i]];
    onChange(next);
  };
  return (
    <div className="col" style={{ gap: 8 }}>
      {messages.map((m, i) => (
        <MessageEditor
          key={i}
          message={m}
          index={i}
          count={messages.length}
          onChange={(next) => onChange(messages.map((x, j) => (j === i ? next : x)))}
          onMove={(d) => move(i, d)}
          onRemove={() => onChange(messages.filter((_, j) => j !== i))}
        />
      ))}
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => onChange([...messages, { role: messages.at(-1)?.role === "user" ? "assistant" : "user", content: "" }])}
      >
        Add message
      </button>
    </div>
  );
}
