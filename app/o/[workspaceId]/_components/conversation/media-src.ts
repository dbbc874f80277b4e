import type { MediaSource } from "@/server/llm/conversation-types";

export type MediaKind = "image" | "audio" | "video" | "file";

export const BASE64 = /^[A-Za-z0-9+/=_\s-]+$/;
const PLAYABLE = /^(image|audio|video)\/[\w.+-]+$/i;

function playable(kind: MediaKind, mime: string): boolean {
  return kind !== "file" && PLAYABLE.test(mime) && mime.toLowerCase().startsWith(`${kind}/`);
}

/**
 * The address a media element may load: http(s) URLs, and data: URLs only for image, audio or
 * video types of the block's own kind (built from base64 + mimeType, or given as such).
 */
export function mediaSrc(kind: MediaKind, source: MediaSource): string | null {
  const url = source.url?.trim();
  if (url && /^https?:\/\//i.test(url)) return url;
  const fromData = url ? /^data:([\w.+-]+\/[\w.+-]+)(;[^,]*)?,/i.exec(url) : null;
  if (url && fromData) return playable(kind, fromData[1]) ? url : null;
  if (source.base64 && source.mimeType && playable(kind, source.mimeType) && BASE64.test(source.base64)) {
    return `data:${source.mimeType};base64,${source.base64.replace(/\s/g, "")}`;
  }
  return null;
}
