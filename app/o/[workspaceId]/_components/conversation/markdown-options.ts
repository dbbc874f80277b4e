import type { Options } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** Raw HTML in a message is shown as the text it is, never interpreted (nor silently dropped). */
function remarkHtmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(walk);
  };
  return walk;
}

/** Only http(s) and mailto links and images; anything else (javascript:, data:, relative) is dropped. */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(trimmed)) return "";
  try {
    return new URL(trimmed).href;
  } catch {
    return "";
  }
}

/** GFM (tables, task lists, strikethrough, autolinks) and highlighted fenced code with a named language. */
export const markdownOptions = {
  remarkPlugins: [remarkGfm, remarkHtmlAsText],
  rehypePlugins: [[rehypeHighlight, { detect: false }]],
  urlTransform: safeUrl,
} satisfies Options;
