import { randomBytes } from "node:crypto";

/** Builds a multipart/form-data body the way the langsmith SDK lays it out. */
export function multipartBody(parts: { name: string; json?: unknown; bytes?: Buffer; contentType?: string }[]): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----TracelightTest${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const data = part.bytes ?? Buffer.from(JSON.stringify(part.json));
    const type = part.contentType ?? "application/json";
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\nContent-Type: ${type}; length=${data.length}\r\n\r\n`,
      ),
    );
    chunks.push(data, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
