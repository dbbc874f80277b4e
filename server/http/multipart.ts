import { createHash, randomUUID, type Hash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import StreamSearch from "streamsearch";
import { badRequest } from "../core/errors";

/** A part's body written to a temporary file as it arrived, with its size and SHA-256 (hex). */
export interface SpooledFile {
  file: string;
  size: number;
  sha256: string;
}

export interface Part {
  name: string;
  filename?: string;
  contentType: string;
  headers: Record<string, string>;
  size: number;
  /** The body, kept in memory when it is at most SPOOL_BYTES. */
  body?: Buffer;
  /** A larger body, on disk until the request is done (disposeParts). */
  spooled?: SpooledFile;
}

/** Parts larger than this are streamed to a temporary file instead of being held in memory. */
export const SPOOL_BYTES = 256 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
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

/** A part's body as it arrives: in memory up to SPOOL_BYTES, then in a file under `directory()`. */
class Body {
  private chunks: Buffer[] = [];
  private size = 0;
  private out?: { stream: WriteStream; file: string; hash: Hash; failed?: Error };

  constructor(private readonly directory: () => string) {}

  write(bytes: Buffer): void {
    this.size += bytes.length;
    if (this.out) return this.send(bytes);
    this.chunks.push(bytes);
    if (this.size <= SPOOL_BYTES) return;
    const file = path.join(this.directory(), randomUUID());
    const stream = createWriteStream(file);
    this.out = { stream, file, hash: createHash("sha256") };
    stream.on("error", (error) => (this.out!.failed = error));
    for (const chunk of this.chunks.splice(0)) this.send(chunk);
  }

  private send(bytes: Buffer): void {
    this.out!.hash.update(bytes);
    this.out!.stream.write(bytes);
  }

  /** Waits while the file is behind, so no more than one read's worth waits in memory. */
  async drained(): Promise<void> {
    if (this.out?.failed) throw this.out.failed;
    if (this.out?.stream.writableNeedDrain) await once(this.out.stream, "drain");
  }

  /** The body, when it stayed in memory. */
  get inMemory(): Buffer | undefined {
    if (this.out) return undefined;
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
  }

  async finish(): Promise<Pick<Part, "size" | "spooled">> {
    const { stream, file, hash } = this.out!;
    await new Promise<void>((resolve, reject) => {
      stream.once("error", reject);
      stream.end(resolve);
    });
    if (this.out!.failed) throw this.out!.failed;
    return { size: this.size, spooled: { file, size: this.size, sha256: hash.digest("hex") } };
  }

  async discard(): Promise<void> {
    if (!this.out) return;
    this.out.stream.destroy();
    await rm(this.out.file, { force: true });
  }
}

/**
 * A body already whole in memory, split at its boundaries by Buffer.indexOf: each part's body is a
 * view of the request's buffer. Null when the body is not plainly well-formed, or a part would be
 * spooled: the streaming reader then reads it (and says what is wrong with it).
 */
function splitWhole(bytes: Buffer, boundary: string): Part[] | null {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let at = delimiter.length - 2;
  if (!bytes.subarray(0, at).equals(delimiter.subarray(2))) return null;
  const parts: Part[] = [];
  for (;;) {
    if (bytes.length < at + 2) return null;
    if (bytes[at] === 0x2d && bytes[at + 1] === 0x2d) return parts; // closing "--"
    if (!bytes.subarray(at, at + 2).equals(CRLF) || bytes.subarray(at + 2, at + 4).equals(CRLF)) return null;
    const next = bytes.indexOf(delimiter, at + 2);
    const headerEnd = bytes.indexOf(HEADER_END, at + 2);
    if (next === -1 || headerEnd <= at + 2 || headerEnd + 4 > next || headerEnd - at > MAX_HEADER_BYTES) return null;
    if (next - (headerEnd + 4) > SPOOL_BYTES) return null;
    const headers = parseHeaders(bytes.toString("utf8", at + 2, headerEnd));
    const disposition = headers["content-disposition"] ?? "";
    const name = dispositionParam(disposition, "name");
    if (!name) return null;
    const body = bytes.subarray(headerEnd + 4, next);
    parts.push({
      name,
      filename: dispositionParam(disposition, "filename"),
      contentType: headers["content-type"] ?? "application/octet-stream",
      headers,
      size: body.length,
      body,
    });
    at = next + delimiter.length;
  }
}

/**
 * Reads a multipart/form-data body as it streams in, part by part: parts up to SPOOL_BYTES stay in
 * memory, larger ones (attachments, say) go to files under `spoolRoot` as they arrive, hashed on
 * the way, so no large body is ever whole in memory. The boundary is found by streamsearch (the
 * search busboy uses); busboy itself is not used because it keeps every part without a filename —
 * every part the SDKs send — in memory as a string. Files of the parts are removed by disposeParts.
 */
export async function readMultipart(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  boundary: string,
  spoolRoot: string,
): Promise<Part[]> {
  const whole =
    Array.isArray(chunks) && chunks.length === 1
      ? splitWhole(Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength), boundary)
      : null;
  if (whole) return whole;
  const parts: Part[] = [];
  const finishing: Promise<void>[] = [];
  // Where the parser is (a cast, so the compiler does not narrow it: the search's callback changes it).
  let state = "preamble" as "preamble" | "boundary" | "headers" | "body" | "done";
  let pending: Buffer = Buffer.alloc(0);
  let meta: Omit<Part, "size" | "body" | "spooled"> | undefined;
  let body: Body | undefined;
  let directory: string | undefined;
  const spoolDirectory = () => {
    removeStaleSpools(spoolRoot);
    if (!directory) mkdirSync((directory = path.join(spoolRoot, randomUUID())), { recursive: true });
    return directory;
  };

  const startPart = (block: Buffer) => {
    const headers = parseHeaders(block.toString("utf8"));
    const disposition = headers["content-disposition"] ?? "";
    const name = dispositionParam(disposition, "name");
    if (!name) throw badRequest(`Multipart part ${parts.length + 1} has no name in Content-Disposition.`);
    meta = {
      name,
      filename: dispositionParam(disposition, "filename"),
      contentType: headers["content-type"] ?? "application/octet-stream",
      headers,
    };
    body = new Body(spoolDirectory);
    state = "body";
  };

  const onData = (bytes: Buffer) => {
    if (state === "body") return body!.write(bytes);
    if (state !== "boundary" && state !== "headers") return;
    pending = pending.length ? Buffer.concat([pending, bytes]) : bytes;
    if (state === "boundary") {
      if (pending.length < 2) return;
      if (pending[0] === 0x2d && pending[1] === 0x2d) return void (state = "done"); // closing "--"
      if (!pending.subarray(0, 2).equals(CRLF))
        throw badRequest(`Multipart boundary line ${parts.length + 1} is not followed by a line break.`);
      pending = pending.subarray(2);
      state = "headers";
    }
    // A part without headers starts its body right away; its missing name is reported by startPart.
    const end = pending.subarray(0, 2).equals(CRLF) ? -2 : pending.indexOf(HEADER_END);
    if (end === -1) {
      if (pending.length > MAX_HEADER_BYTES) throw badRequest(`Multipart part ${parts.length + 1} has no header block.`);
      return;
    }
    const rest = pending.subarray(end + 4);
    startPart(pending.subarray(0, Math.max(end, 0)));
    pending = Buffer.alloc(0);
    if (rest.length) body!.write(rest);
  };

  const onBoundary = () => {
    if (state === "headers" || state === "boundary") throw badRequest(`Multipart part ${parts.length + 1} has no header block.`);
    if (state === "body") {
      const [done, current] = [body!, meta!];
      const inMemory = done.inMemory;
      const index = parts.push(inMemory ? { ...current, size: inMemory.length, body: inMemory } : { ...current, size: 0 }) - 1;
      if (!inMemory) finishing.push(done.finish().then((content) => void (parts[index] = { ...current, ...content })));
    }
    if (state !== "done") state = "boundary";
  };

  const search = new StreamSearch(`\r\n--${boundary}`, (isMatch, data, start, end, isSafeData) => {
    if (data && end > start) onData(isSafeData ? data.subarray(start, end) : Buffer.from(data.subarray(start, end)));
    if (isMatch) onBoundary();
  });

  try {
    // The body begins with the first boundary line itself, which is the delimiter without its CRLF.
    search.push(CRLF);
    for await (const chunk of chunks) {
      search.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (state === "body") await body!.drained();
    }
    search.destroy();
    if (state === "preamble") throw badRequest("Multipart body has no boundary line; check the boundary in Content-Type.");
    if (state !== "done") throw badRequest(`Multipart body ends inside part ${parts.length + 1}; the closing boundary is missing.`);
    await Promise.all(finishing);
    return parts;
  } catch (error) {
    await Promise.allSettled(finishing);
    await body?.discard();
    if (directory) await rm(directory, { recursive: true, force: true });
    throw error;
  }
}

const STALE_SPOOL_MS = 3_600_000;
let staleSwept = false;

/**
 * Once per process, removes spool directories an hour old under `spoolRoot`: what a process killed
 * mid-request left behind (requests are far shorter; other instances sharing DATA_DIR are unharmed).
 */
function removeStaleSpools(spoolRoot: string): void {
  if (staleSwept) return;
  staleSwept = true;
  void (async () => {
    for (const entry of await readdir(spoolRoot).catch(() => [])) {
      const dir = path.join(spoolRoot, entry);
      const { mtimeMs } = await stat(dir).catch(() => ({ mtimeMs: Date.now() }));
      if (Date.now() - mtimeMs > STALE_SPOOL_MS) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  })();
}

/** A part's bytes (read back from its file when it was spooled). */
export const partBytes = async (part: Part): Promise<Buffer> => part.body ?? readFile(part.spooled!.file);

export const partText = async (part: Part): Promise<string> => (await partBytes(part)).toString("utf8");

/** Removes the files of spooled parts (and their directory) once the request is done with them. */
export async function disposeParts(parts: Part[]): Promise<void> {
  const files = parts.flatMap((part) => (part.spooled ? [part.spooled.file] : []));
  if (files.length === 0) return;
  await rm(path.dirname(files[0]), { recursive: true, force: true });
}
