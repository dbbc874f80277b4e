"use client";

import { useEffect, useRef, useState } from "react";
import { rangeTicks } from "../../../../_components/charts/ticks";
import { formatLatency } from "../../../../_components/format";
import styles from "./trace.module.css";

/** A duration in milliseconds as the tree shows it. */
export function msLabel(ms: number): string {
  return formatLatency(ms / 1000);
}
/** Roughly how wide a label of `text` is at the axis's font (tabular digits), padding included. */
const labelWidth = (text: string) => 7.5 * text.length + 10;

/** Round ticks over the trace's duration whose labels fit between each other and the end's, and its end. */
export function Axis({ span }: { span: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const end = msLabel(span);
  // Round steps, each kept when its label ends 8 px before the next label starts (the end's is
  // right-aligned), so labels never meet however narrow the column is.
  const ticks: number[] = [];
  let free = 0;
  for (const t of rangeTicks(0, span, 5)) {
    const left = (t / span) * width;
    const right = left + labelWidth(t === 0 ? "0" : msLabel(t));
    if (width > 0 && left >= free && right + 8 <= width - labelWidth(end)) {
      ticks.push(t);
      free = right + 8;
    }
  }
  return (
    <div ref={ref} className={styles.axis} style={{ marginRight: 16 }} data-testid="trace-axis">
      {ticks.map((t) => (
        <div key={t} className={styles.tick} style={{ left: `${(t / span) * 100}%` }}>
          {t === 0 ? "0" : msLabel(t)}
        </div>
      ))}
      <div className={`${styles.tick} ${styles.tickEnd}`}>{end}</div>
    </div>
  );
}
