import { badRequest } from "../core/errors";

export interface Part {
  name: string;
  filename?: string;
  contentType: string;
  headers: Record<string, string>;
  body: Buffer;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

export function boundaryOf(contentType: string | null): string {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  if (!contentType?.toLowerCase().startsWith("multipart/form-data") || !match) {
    throw badRequest('Expected Content-Type "multipart/form-data; boundary=..."');
  }
  return match[1] ?? match[2];
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const PARAM_PATTERNS = new Map<string, [RegExp, RegExp]>();

function dispositionParam(disposition: string, key: string): string | undefined {
  let patterns = PARAM_PATTERNS.get(key);
  if (!patterns) {
    patterns = [new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i"), new RegExp(`(?:^|;)\\s*${key}=([^;]+)`, "i")];
    PARAM_PATTERNS.set(key, patterns);
  }
  const match = patterns[0].exec(disposition) ?? patterns[1].exec(disposition);
  return match?.[1].replace(/\\(.)/g, "$1").trim();
}

/**
 * Splits a buffered multipart/form-data body into parts. Searching with Buffer.indexOf keeps it
 * linear and copy-free (part bodies are views of the request buffer).
 */
export function parseMultipart(body: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const partEnd = Buffer.concat([CRLF, delimiter]);
  const parts: Part[] = [];
  let start = body.indexOf(delimiter);
  if (start < 0) throw badRequest("Multipart body has no boundary line; check the boundary in Content-Type.");
  for (;;) {
    let cursor = start + delimiter.length;
    if (body[cursor] === 0x2d && body[cursor + 1] === 0x2d) return parts; // closing "--"
    if (body.subarray(cursor, cursor + 2).equals(CRLF)) cursor += 2;
    const next = body.indexOf(partEnd, cursor);
    if (next < 0) throw badRequest(`Multipart body ends inside part ${parts.length + 1}; the closing boundary is missing.`);
    const headerEnd = body.indexOf(HEADER_END, cursor);
    if (headerEnd < 0 || headerEnd > next) throw badRequest(`Multipart part ${parts.length + 1} has no header block.`);
    const headers = parseHeaders(body.subarray(cursor, headerEnd).toString("utf8"));
    const disposition = headers["content-disposition"] ?? "";
    const name = dispositionParam(disposition, "name");
    if (!name) throw badRequest(`Multipart part ${parts.length + 1} has no name in Content-Disposition.`);
    parts.push({
      name,
      filename: dispositionParam(disposition, "filename"),
      contentType: headers["content-type"] ?? "application/octet-stream",
      headers,
      body: body.subarray(headerEnd + 4, next),
    });
    start = next + 2;
  }
}
