import { inflateSync, gunzipSync, brotliDecompressSync } from "node:zlib";
import { Decompress as ZstdDecompress } from "fzstd";
import { env } from "../env";
import { badRequest, payloadTooLarge, unsupportedMediaType } from "../core/errors";

const MiB = 1024 * 1024;
const fmt = (bytes: number) => (bytes >= MiB ? `${(bytes / MiB).toFixed(bytes % MiB ? 1 : 0)} MiB` : `${bytes} bytes`);

/** Reads the whole body (chunked or not), refusing more than `limit` bytes before buffering them. */
export async function readBody(request: Request, limit = env().MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw payloadTooLarge(`Request body is ${fmt(declared)}; the limit is ${fmt(limit)}.`);
  if (!request.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw payloadTooLarge(`Request body exceeds the limit of ${fmt(limit)}.`);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, size);
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
