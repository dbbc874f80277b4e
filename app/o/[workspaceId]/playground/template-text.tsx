"use client";

import { useRef, type Ref } from "react";
import styles from "./playground.module.css";

/** The text cut at its `{variables}` (a `{{` / `}}` is an escaped brace, not a variable). */
export function templateParts(text: string): { text: string; variable: boolean }[] {
  const parts: { text: string; variable: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    if (m[1] === undefined) continue;
    if (m.index > last) parts.push({ text: text.slice(last, m.index), variable: false });
    parts.push({ text: m[0], variable: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), variable: false });
  return parts;
}

/**
 * A template's text area with its `{variables}` highlighted: a backdrop with the same metrics
 * paints the marks under a transparent textarea, so editing stays a plain textarea.
 */
export function TemplateText({
  value,
  onChange,
  rows,
  label,
  textareaRef,
}: {
  value: string;
  onChange: (text: string) => void;
  rows: number;
  label: string;
  textareaRef?: Ref<HTMLTextAreaElement>;
}) {
  const backdrop = useRef<HTMLDivElement>(null);
  return (
    <div className={styles.template}>
      <div ref={backdrop} className={`textarea ${styles.templateBackdrop}`} aria-hidden data-testid="template-backdrop">
        {templateParts(value).map((p, i) =>
          p.variable ? (
            <mark key={i} className={styles.variable}>
              {p.text}
            </mark>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
        {/* A final newline needs a character after it to take its line. */}
        {value.endsWith("\n") ? " " : null}
      </div>
      <textarea
        ref={textareaRef}
        className={`textarea ${styles.templateInput}`}
        rows={rows}
        value={value}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onScroll={(e) => {
          if (backdrop.current) backdrop.current.scrollTop = e.currentTarget.scrollTop;
        }}
        aria-label={label}
      />
    </div>
  );
}
