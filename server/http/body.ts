import { Readable } from "node:stream";
import { inflateSync, gunzipSync, brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { Decompress as ZstdDecompress } from "fzstd";
import { env } from "../env";
import { badRequest, payloadTooLarge, unsupportedMediaType } from "../core/errors";

const MiB = 1024 * 1024;
const fmt = (bytes: number) => (bytes >= MiB ? `${(bytes / MiB).toFixed(bytes % MiB ? 1 : 0)} MiB` : `${bytes} bytes`);

/** Reads the whole body (chunked or not), refusing more than `limit` bytes before buffering them. */
export async function readBody(request: Request, limit = env().MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of rawChunks(request, limit)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The raw body chunk by chunk, refusing more than `limit` bytes as soon as they arrive. */
async function* rawChunks(request: Request, limit: number): AsyncGenerator<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw payloadTooLarge(`Request body is ${fmt(declared)}; the limit is ${fmt(limit)}.`);
  if (!request.body) return;
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw payloadTooLarge(`Request body exceeds the limit of ${fmt(limit)}.`);
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

function tooLargeDecoded(limit: number) {
  return payloadTooLarge(`Decompressed request body exceeds the limit of ${fmt(limit)}.`);
}

function zstd(bytes: Buffer, limit: number): Buffer {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stream = new ZstdDecompress((chunk) => {
    size += chunk.byteLength;
    if (size > limit) throw tooLargeDecoded(limit);
    chunks.push(chunk);
  });
  stream.push(bytes, true);
  return Buffer.concat(chunks, size);
}

/** Undoes Content-Encoding (gzip, deflate, br, zstd), never producing more than `limit` bytes. */
export function decodeContent(bytes: Buffer, encoding: string | null, limit = env().MAX_DECOMPRESSED_BYTES): Buffer {
  const name = (encoding ?? "identity").trim().toLowerCase();
  try {
    switch (name) {
      case "":
      case "identity":
        return bytes;
      case "gzip":
      case "x-gzip":
        return gunzipSync(bytes, { maxOutputLength: limit });
      case "deflate":
        return inflateSync(bytes, { maxOutputLength: limit });
      case "br":
        return brotliDecompressSync(bytes, { maxOutputLength: limit });
      case "zstd":
        return zstd(bytes, limit);
    }
  } catch (error) {
    if ((error as { status?: number }).status === 413) throw error;
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooLargeDecoded(limit);
    throw badRequest(`Request body is not valid ${name} data: ${(error as Error).message}`);
  }
  throw unsupportedMediaType(`Unsupported Content-Encoding "${encoding}"; use gzip, deflate, br or zstd.`);
}

/** The request body as bytes, decompressed; `limit` caps both sizes when given. */
export async function readDecodedBody(request: Request, limit?: number): Promise<Buffer> {
  return decodeContent(await readBody(request, limit), request.headers.get("content-encoding"), limit);
}

async function* zstdChunks(input: AsyncIterable<Buffer>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  const stream = new ZstdDecompress((chunk) => void out.push(chunk));
  for await (const chunk of input) {
    stream.push(chunk);
    yield* out.splice(0);
  }
  stream.push(new Uint8Array(0), true);
  yield* out.splice(0);
}

function decoded(input: AsyncIterable<Buffer>, name: string): AsyncIterable<Uint8Array> {
  switch (name) {
    case "":
    case "identity":
      return input;
    case "gzip":
    case "x-gzip":
      return Readable.from(input).pipe(createGunzip());
    case "deflate":
      return Readable.from(input).pipe(createInflate());
    case "br":
      return Readable.from(input).pipe(createBrotliDecompress());
    case "zstd":
      return zstdChunks(input);
  }
  throw unsupportedMediaType(`Unsupported Content-Encoding "${name}"; use gzip, deflate, br or zstd.`);
}

/**
 * The request body decompressed, chunk by chunk as it streams in (for bodies too large to hold
 * whole: multipart uploads), within MAX_BODY_BYTES sent and MAX_DECOMPRESSED_BYTES decoded.
 */
export async function* decodedBodyChunks(request: Request): AsyncGenerator<Uint8Array> {
  const name = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  const limit = env().MAX_DECOMPRESSED_BYTES;
  let size = 0;
  try {
    for await (const chunk of decoded(rawChunks(request, env().MAX_BODY_BYTES), name)) {
      size += chunk.byteLength;
      if (size > limit) throw tooLargeDecoded(limit);
      yield chunk;
    }
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status || name === "" || name === "identity") throw error;
    throw badRequest(`Request body is not valid ${name} data: ${(error as Error).message}`);
  }
}

/** Parses JSON text, with a message that says where it broke. */
export function parseJson(bytes: Buffer | string, what = "Request body"): unknown {
  const text = typeof bytes === "string" ? bytes : bytes.toString("utf8");
  if (text.trim() === "") throw badRequest(`${what} is empty; expected JSON.`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}
