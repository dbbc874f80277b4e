"use client";

import { useCallback, useEffect, useState, type PointerEvent } from "react";

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** A right-hand panel's width in pixels, remembered in this browser under `key`. */
export function usePanelWidth(key: string, initial: number, min = 320, max = 1200) {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const saved = Number(localStorage.getItem(key));
    if (saved) setWidth(clamp(saved, min, Math.min(max, window.innerWidth - 360)));
  }, [key, min, max]);
  const resize = useCallback(
    (next: number) => {
      const w = clamp(next, min, Math.min(max, window.innerWidth - 360));
      setWidth(w);
      localStorage.setItem(key, String(Math.round(w)));
    },
    [key, min, max],
  );
  return [width, resize] as const;
}

/** A vertical grip on a right-hand panel's left edge: dragging it sets the panel's width; arrow keys nudge it. */
export function ResizeHandle({ width, onResize }: { width: number; onResize: (width: number) => void }) {
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const grip = e.currentTarget;
    grip.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent) => onResize(window.innerWidth - ev.clientX);
    const up = () => {
      grip.removeEventListener("pointermove", move);
      grip.removeEventListener("pointerup", up);
    };
    grip.addEventListener("pointermove", move);
    grip.addEventListener("pointerup", up);
  };
  return (
    <div
      className="resize-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize panel"
      aria-valuenow={Math.round(width)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={(e) => {
        if (e.key === "ArrowLeft") onResize(width + 40);
        else if (e.key === "ArrowRight") onResize(width - 40);
        else return;
        e.preventDefault();
      }}
      data-testid="resize-handle"
    />
  );
}
