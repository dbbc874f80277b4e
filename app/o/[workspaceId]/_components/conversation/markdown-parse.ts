/**
 * A small Markdown subset parsed into plain data, so rendering builds React elements and never
 * HTML strings: paragraphs, headings, fenced code, lists, quotes, **bold**, *italic*, `code` and
 * links. Anything else (raw HTML included) stays text.
 */
export type Inline =
  | { t: "text"; text: string }
  | { t: "code"; text: string }
  | { t: "strong"; children: Inline[] }
  | { t: "em"; children: Inline[] }
  | { t: "link"; href: string; children: Inline[] };

export type Block =
  | { t: "p"; children: Inline[] }
  | { t: "heading"; level: number; children: Inline[] }
  | { t: "code"; lang: string; text: string }
  | { t: "list"; ordered: boolean; start: number; items: Inline[][] }
  | { t: "quote"; children: Block[] }
  | { t: "hr" };

/** Only absolute http(s) links become anchors; `javascript:`, `data:` and relative hrefs stay text. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (!/^https?:\/\//i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;

function startsBlock(line: string): boolean {
  return FENCE.test(line) || BULLET.test(line) || ORDERED.test(line) || HEADING.test(line) || QUOTE.test(line) || RULE.test(line);
}

export function parseMarkdown(source: string, depth = 0): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) body.push(lines[i++]);
      i++;
      blocks.push({ t: "code", lang: fence[2], text: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ t: "heading", level: heading[1].length, children: parseInline(heading[2]) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (QUOTE.test(line) && depth < 4) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i])) body.push(QUOTE.exec(lines[i++])![1]);
      blocks.push({ t: "quote", children: parseMarkdown(body.join("\n"), depth + 1) });
      continue;
    }
    const ordered = ORDERED.exec(line);
    if (ordered || BULLET.test(line)) {
      const pattern = ordered ? ORDERED : BULLET;
      const items: string[][] = [];
      while (i < lines.length) {
        const match = pattern.exec(lines[i]);
        if (match) {
          items.push([ordered ? match[2] : match[1]]);
          i++;
        } else if (lines[i].trim() !== "" && /^\s+/.test(lines[i]) && items.length) {
          items[items.length - 1].push(lines[i++].trim());
        } else break;
      }
      blocks.push({
        t: "list",
        ordered: !!ordered,
        start: ordered ? Number(ordered[1]) : 1,
        items: items.map((item) => parseInline(item.join("\n"))),
      });
      continue;
    }
    const body: string[] = [line];
    i++;
    while (i < lines.length && lines[i].trim() !== "" && !startsBlock(lines[i])) body.push(lines[i++]);
    blocks.push({ t: "p", children: parseInline(body.join("\n")) });
  }
  return blocks;
}

/**
 * Finds closing delimiters for one text. A search that failed from position p fails from any later
 * position too, so it is not repeated: "[[[[…" or "** ** **…" stay linear instead of quadratic.
 */
function finder(text: string) {
  const failedFrom = new Map<string, number>();
  return (from: number, delimiter: string, escapes = true): number => {
    if (from >= (failedFrom.get(delimiter) ?? Infinity)) return -1;
    for (let j = from; j <= text.length - delimiter.length; j++) {
      if (escapes && text[j] === "\\") {
        j++;
        continue;
      }
      if (text.startsWith(delimiter, j)) return j;
    }
    failedFrom.set(delimiter, Math.min(from, failedFrom.get(delimiter) ?? Infinity));
    return -1;
  };
}

const TICKS = /`+/y;
const BARE_URL = /https?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/iy;

export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  const closing = finder(text);
  let buffer = "";
  const flush = () => {
    if (buffer) out.push({ t: "text", text: buffer });
    buffer = "";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length && /[\\`*_[\]()#>!-]/.test(text[i + 1])) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") {
      TICKS.lastIndex = i;
      const ticks = TICKS.exec(text)![0];
      const end = closing(i + ticks.length, ticks, false);
      if (end > 0) {
        flush();
        out.push({ t: "code", text: text.slice(i + ticks.length, end).replace(/^ (.*) $/s, "$1") });
        i = end + ticks.length;
        continue;
      }
    }
    if (depth < 6 && (text.startsWith("**", i) || text.startsWith("__", i))) {
      const delimiter = text.slice(i, i + 2);
      const end = closing(i + 2, delimiter);
      if (end > i + 2 && text[i + 2] !== " ") {
        flush();
        out.push({ t: "strong", children: parseInline(text.slice(i + 2, end), depth + 1) });
        i = end + 2;
        continue;
      }
    }
    if (depth < 6 && (c === "*" || c === "_") && text[i + 1] !== " " && text[i + 1] !== c) {
      // An underscore inside a word (snake_case) is not emphasis.
      const wordBefore = c === "_" && i > 0 && /\w/.test(text[i - 1]);
      const end = wordBefore ? -1 : closing(i + 1, c);
      if (end > i + 1 && text[end - 1] !== " " && !(c === "_" && /\w/.test(text[end + 1] ?? ""))) {
        flush();
        out.push({ t: "em", children: parseInline(text.slice(i + 1, end), depth + 1) });
        i = end + 1;
        continue;
      }
    }
    if (c === "[" && depth < 6) {
      const close = closing(i + 1, "]");
      if (close > i && text[close + 1] === "(") {
        const end = closing(close + 2, ")", false);
        if (end > 0) {
          const href = safeHref(text.slice(close + 2, end).split(/\s+"/)[0]);
          const label = parseInline(text.slice(i + 1, close), depth + 1);
          flush();
          if (href) out.push({ t: "link", href, children: label });
          else out.push(...label, { t: "text", text: ` (${text.slice(close + 2, end)})` });
          i = end + 1;
          continue;
        }
      }
    }
    if ((c === "h" || c === "H") && (i === 0 || /[\s(]/.test(text[i - 1]))) {
      BARE_URL.lastIndex = i;
      const bare = BARE_URL.exec(text);
      const href = bare && safeHref(bare[0]);
      if (bare && href) {
        flush();
        out.push({ t: "link", href, children: [{ t: "text", text: bare[0] }] });
        i += bare[0].length;
        continue;
      }
    }
    buffer += c;
    i++;
  }
  flush();
  return out;
}
