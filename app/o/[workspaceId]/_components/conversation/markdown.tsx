"use client";

import { memo, useState, type ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import { markdownOptions } from "./markdown-options";
import styles from "./conversation.module.css";

interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

const textOf = (node: HastNode | undefined): string =>
  node?.type === "text" ? (node.value ?? "") : (node?.children ?? []).map(textOf).join("");

function CodeBlock({ node, children }: ComponentProps<"pre"> & { node?: HastNode }) {
  const [copied, setCopied] = useState(false);
  const code = node?.children?.find((c) => c.tagName === "code");
  const classes = Array.isArray(code?.properties?.className) ? (code.properties.className as string[]) : [];
  const lang = classes.find((c) => c.startsWith("language-"))?.slice("language-".length);
  const copy = async () => {
    await navigator.clipboard.writeText(textOf(code).replace(/\n$/, ""));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className={styles.codeWrap}>
      <div className={styles.codeBar}>
        <span>{lang ?? "text"}</span>
        <button type="button" className={styles.copy} onClick={copy} aria-label="Copy code">
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre className={styles.codeBlock}>{children}</pre>
    </div>
  );
}

const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
  pre: CodeBlock,
  code: ({ node: _node, className, ...props }) => <code className={className ?? styles.inlineCode} {...props} />,
  table: ({ node: _node, ...props }) => (
    <div className={styles.tableWrap}>
      <table {...props} />
    </div>
  ),
  // Images in a model's answer come from anywhere: shown as they are, not through Next's optimizer.
  // eslint-disable-next-line @next/next/no-img-element
  img: ({ node: _node, alt, ...props }) => <img alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" {...props} />,
};

/** Markdown text as React elements (react-markdown + GFM); raw HTML in the text is shown as text. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className={styles.markdown}>
      <ReactMarkdown {...markdownOptions} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
