import { test } from "node:test";
import assert from "node:assert/strict";
import { blobHeaders } from "./headers";

test("attachments: raster images, audio and video inline; anything that could run downloads; all sandboxed", () => {
  for (const type of ["image/png", "image/jpeg", "audio/mpeg", "video/mp4"])
    assert.equal(blobHeaders(type)["content-disposition"], "inline", type);
  for (const type of ["text/html", "image/svg+xml", "application/pdf", "text/plain", "application/xhtml+xml", "text/xml"]) {
    const headers = blobHeaders(type);
    assert.equal(headers["content-disposition"], "attachment", type);
    assert.match(headers["content-security-policy"]!, /^sandbox/);
    assert.equal(headers["x-content-type-options"], "nosniff");
  }
  assert.equal(blobHeaders("text/html\r\nx-evil: 1")["content-type"], "application/octet-stream", "a malformed type is not passed on");
  assert.equal(blobHeaders("image/png; charset=x")["content-type"], "image/png");
});
