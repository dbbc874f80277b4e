"use client";

import type { ChatMessage } from "./stream";
import styles from "./playground.module.css";

const ROLES: ChatMessage["role"][] = ["system", "user", "assistant", "tool"];
type Part = { type: string; text?: string; image_url?: { url?: string } };

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
        {message.tool_calls?.length ? <span className="badge">{message.tool_calls.length} tool call(s)</span> : null}
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
              <textarea
                key={i}
                className="textarea"
                rows={3}
                value={p.text ?? ""}
                onChange={(e) => setParts(parts.map((q, j) => (j === i ? { type: "text", text: e.target.value } : q)))}
                aria-label={`${label} text ${i + 1}`}
              />
            ),
          )}
        </>
      ) : (
        <textarea
          className="textarea"
          rows={Math.min(10, Math.max(2, String(message.content ?? "").split("\n").length))}
          value={String(message.content ?? "")}
          onChange={(e) => onChange({ ...message, content: e.target.value })}
          aria-label={`${label} content`}
        />
      )}
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
