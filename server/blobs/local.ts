import { createHmac, timingSafeEqual } from "node:crypto";
import { access, constants, copyFile, link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";
import { publicUrl } from "../http/public-url";
import type { BlobBackend } from "./store";

/** Files under DATA_DIR/blobs (the embedded default), served by the signed route /api/v1/public/blobs/{key}. */
export function localBackend(): BlobBackend {
  const file = (key: string) => path.join(env().DATA_DIR, "blobs", key.slice(0, 2), key);
  return {
    async put(key, content) {
      await mkdir(path.dirname(file(key)), { recursive: true });
      if (Buffer.isBuffer(content)) return writeFile(file(key), content);
      // An upload streamed to a file under DATA_DIR is linked into place (the same bytes may be there already).
      await link(content.file, file(key)).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === "EEXIST") return;
        if (error.code === "EXDEV" || error.code === "EPERM") return copyFile(content.file, file(key));
        throw error;
      });
    },
    async get(key) {
      return readFile(file(key)).catch(() => null);
    },
    async delete(key) {
      await rm(file(key), { force: true });
    },
    async url(key, mimeType, ttlSeconds) {
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      const query = `expires=${expires}&type=${encodeURIComponent(mimeType)}&sig=${sign(`${key}.${expires}.${mimeType}`)}`;
      return publicUrl(`/api/v1/public/blobs/${key}?${query}`);
    },
    async check() {
      const dir = path.join(env().DATA_DIR, "blobs");
      await mkdir(dir, { recursive: true });
      await access(dir, constants.W_OK);
    },
  };
}

const sign = (payload: string) => createHmac("sha256", env().INTERNAL_SECRET).update(payload).digest("base64url");

export function verifyBlobSignature(key: string, expires: string, mimeType: string, signature: string): boolean {
  if (!/^\d+$/.test(expires) || Number(expires) < Date.now() / 1000) return false;
  const expected = Buffer.from(sign(`${key}.${expires}.${mimeType}`));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
