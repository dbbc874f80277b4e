import { memo, type ReactNode } from "react";
import { parseMarkdown, type Block, type Inline } from "./markdown-parse";
import styles from "./conversation.module.css";

function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.t) {
      case "text":
        return node.text;
      case "code":
        return <code key={i} className={styles.inlineCode}>{node.text}</code>;
      case "strong":
        return <strong key={i}>{inline(node.children)}</strong>;
      case "em":
        return <em key={i}>{inline(node.children)}</em>;
      case "link":
        return <a key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow">{inline(node.children)}</a>;
    }
  });
}

function block(node: Block, i: number): ReactNode {
  switch (node.t) {
    case "p":
      return <p key={i}>{inline(node.children)}</p>;
    case "heading":
      return <p key={i} className={styles.mdHeading} data-level={node.level}>{inline(node.children)}</p>;
    case "code":
      return (
        <pre key={i} className={styles.codeBlock} data-lang={node.lang || undefined}>
          <code>{node.text}</code>
        </pre>
      );
    case "list": {
      const items = node.items.map((item, j) => <li key={j}>{inline(item)}</li>);
      return node.ordered ? <ol key={i} start={node.start}>{items}</ol> : <ul key={i}>{items}</ul>;
    }
    case "quote":
      return <blockquote key={i}>{node.children.map(block)}</blockquote>;
    case "hr":
      return <hr key={i} />;
  }
}

/** Markdown text as React elements; raw HTML in the text is shown as text, never interpreted. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <div className={styles.markdown}>{parseMarkdown(text).map(block)}</div>;
});
