import { test } from "node:test";
import assert from "node:assert/strict";
import { boundaryOf, parseMultipart } from "./multipart";

const body = (boundary: string, parts: [string, string, string][]) =>
  Buffer.from(
    parts
      .map(
        ([name, type, content]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n`,
      )
      .join("") + `--${boundary}--\r\n`,
  );

test("splits the parts the SDKs send, keeping bytes intact", () => {
  const b = "----LangSmithFormBoundaryabc";
  const parts = parseMultipart(
    body(b, [
      ["post.1", "application/json; length=2", "{}"],
      ["attachment.1.img", "image/png; length=4", "\x89PNG"],
    ]),
    boundaryOf(`multipart/form-data; boundary=${b}`),
  );
  assert.deepEqual(
    parts.map((p) => p.name),
    ["post.1", "attachment.1.img"],
  );
  assert.equal(parts[0].body.toString(), "{}");
  assert.equal(parts[1].contentType, "image/png; length=4");
});

test("a body cut short names the part that is missing its end", () => {
  const whole = body("x", [["post.1", "application/json", "{}"]]);
  assert.throws(() => parseMultipart(whole.subarray(0, whole.length - 12), "x"), /ends inside part 1/);
});

test("a content type without a boundary is refused", () => {
  assert.throws(() => boundaryOf("application/json"), /multipart\/form-data; boundary/);
});
