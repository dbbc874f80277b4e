/**
 * How an attachment is served. Its type is the uploader's word, and it is served from our own
 * origin, so nothing in it may run: every answer is sandboxed (no script, no same-origin access)
 * and never sniffed, and only types a browser shows without executing anything (raster images,
 * audio, video) are shown inline; everything else (HTML, SVG, PDF, text...) downloads.
 */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+)$/i;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;

export function blobHeaders(uploadedType: string): Record<string, string> {
  const type = uploadedType.split(";")[0]!.trim();
  const safeType = MIME.test(type) ? type : "application/octet-stream";
  return {
    "content-type": safeType,
    "content-security-policy": "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'",
    "x-content-type-options": "nosniff",
    "content-disposition": INLINE.test(safeType) ? "inline" : "attachment",
    "cache-control": "private, max-age=3600",
  };
}
