import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { boundaryOf, disposeParts, partBytes, readMultipart, SPOOL_BYTES } from "./multipart";

const spool = mkdtempSync(path.join(tmpdir(), "tracelight-multipart-"));
const body = (boundary: string, parts: [string, string, string | Buffer][]) =>
  Buffer.concat([
    ...parts.flatMap(([name, type, content]) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
      Buffer.from(content),
      Buffer.from("\r\n"),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
/** The body delivered `size` bytes at a time, as a slow client's stream would. */
const chunked = (bytes: Buffer, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

test("splits the parts the SDKs send, keeping bytes intact, whatever the chunks", async () => {
  const b = "----LangSmithFormBoundaryabc";
  const whole = body(b, [
    ["post.1", "application/json; length=2", "{}"],
    ["attachment.1.img", "image/png; length=4", Buffer.from("\x89PNG", "latin1")],
  ]);
  for (const size of [whole.length, 7, 1]) {
    const parts = await readMultipart(chunked(whole, size), boundaryOf(`multipart/form-data; boundary=${b}`), spool);
    assert.deepEqual(
      parts.map((p) => [p.name, p.body?.toString("latin1"), p.size]),
      [
        ["post.1", "{}", 2],
        ["attachment.1.img", "\x89PNG", 4],
      ],
    );
    assert.equal(parts[1].contentType, "image/png; length=4");
  }
});

test("a part larger than SPOOL_BYTES streams to a file, hashed on the way, removed after the request", async () => {
  const file = randomBytes(SPOOL_BYTES * 3 + 17);
  const parts = await readMultipart(
    chunked(
      body("B", [
        ["post.1", "application/json", "{}"],
        ["attachment.1.big", "application/octet-stream", file],
      ]),
      64 * 1024,
    ),
    "B",
    spool,
  );
  const [small, big] = parts;
  assert.equal(small.spooled, undefined);
  assert.equal(big.body, undefined);
  assert.deepEqual(big.spooled, { file: big.spooled!.file, size: file.length, sha256: createHash("sha256").update(file).digest("hex") });
  assert.ok((await readFile(big.spooled!.file)).equals(file));
  assert.ok((await partBytes(big)).equals(file));
  await disposeParts(parts);
  assert.equal(existsSync(big.spooled!.file), false);
});

test("a body cut short names the part that is missing its end, and leaves no file behind", async () => {
  const whole = body("x", [["post.1", "application/json", "{}"]]);
  await assert.rejects(readMultipart([whole.subarray(0, whole.length - 12)], "x", spool), /ends inside part 1/);
  const big = body("x", [["attachment.1.a", "text/plain", randomBytes(SPOOL_BYTES * 2)]]);
  const before = readdirSync(spool).length;
  await assert.rejects(readMultipart(chunked(big.subarray(0, big.length - 12), 4096), "x", spool), /ends inside part 1/);
  assert.equal(readdirSync(spool).length, before);
  await assert.rejects(readMultipart([Buffer.from("no boundary here")], "x", spool), /no boundary line/);
  await assert.rejects(readMultipart([Buffer.from("--x\r\nContent-Type: text/plain\r\n\r\n{}\r\n--x--")], "x", spool), /no name/);
});

test("a content type without a boundary is refused", () => {
  assert.throws(() => boundaryOf("application/json"), /multipart\/form-data; boundary/);
});
