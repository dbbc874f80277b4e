"use client";

import { useEffect, useRef, useState } from "react";
import type { MediaSource } from "@/server/llm/conversation-types";
import { BASE64, mediaSrc, type MediaKind } from "./media-src";
import styles from "./conversation.module.css";

function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/\s|=/g, "").length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;
}

/** Inline base64 of any type is offered as a download of opaque bytes, never opened in the page. */
function DownloadBase64({ base64, name }: { base64: string; name: string }) {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    if (!BASE64.test(base64)) return;
    try {
      const bytes = Uint8Array.from(atob(base64.replace(/\s/g, "").replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
      setHref(url);
      return () => URL.revokeObjectURL(url);
    } catch {
      setHref(null);
    }
  }, [base64]);
  return href ? (
    <a href={href} download={name}>
      Download
    </a>
  ) : null;
}

/** An image that opens at full size over the page on click; Escape or a click closes it. */
function ZoomableImage({ src, alt }: { src: string; alt: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);
  return (
    <>
      <button
        type="button"
        className={styles.zoomButton}
        onClick={() => setOpen(true)}
        aria-label={`Enlarge ${alt}`}
        data-testid="zoom-image"
      >
        {/* eslint-disable-next-line @next/next/no-img-element -- trace media of any origin, not optimisable */}
        <img src={src} alt={alt} loading="lazy" referrerPolicy="no-referrer" />
      </button>
      {open ? (
        <dialog
          ref={dialog}
          className={styles.lightbox}
          onClick={() => dialog.current?.close()}
          onClose={() => setOpen(false)}
          data-testid="image-lightbox"
        >
          {/* eslint-disable-next-line @next/next/no-img-element -- as above */}
          <img src={src} alt={alt} referrerPolicy="no-referrer" />
        </dialog>
      ) : null}
    </>
  );
}

export function Media({ kind, source, name }: { kind: MediaKind; source: MediaSource; name?: string }) {
  const src = mediaSrc(kind, source);
  const label =
    name ?? (source.url && !source.url.startsWith("data:") ? source.url.split(/[?#]/)[0].split("/").pop() || source.url : undefined);
  const details = [source.mimeType, source.base64 ? `${sizeOf(source.base64)} inline` : null, source.id ? `id ${source.id}` : null]
    .filter(Boolean)
    .join(" · ");
  return (
    <figure className={styles.media} data-kind={kind}>
      {src && kind === "image" && <ZoomableImage src={src} alt={name ?? "image from the run"} />}
      {src && kind === "audio" && <audio controls preload="none" src={src} />}
      {src && kind === "video" && <video controls preload="metadata" src={src} />}
      <figcaption>
        <span className={styles.mediaKind}>{kind}</span>
        {kind === "file" && source.url && /^https?:\/\//i.test(source.url) ? (
          <a href={source.url} target="_blank" rel="noopener noreferrer nofollow">
            {label}
          </a>
        ) : (
          label && <span>{label}</span>
        )}
        {details && <span className={styles.dim}>{details}</span>}
        {!src && source.base64 && <DownloadBase64 base64={source.base64} name={name ?? "file"} />}
      </figcaption>
    </figure>
  );
}
