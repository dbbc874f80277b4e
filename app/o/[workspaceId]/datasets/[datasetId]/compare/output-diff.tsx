import { diffWordsWithSpace } from "diff";
import styles from "./compare.module.css";

/** Outputs as text to read and diff: a lone string field as itself, anything else as indented JSON. */
export function outputText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.values(value as Record<string, unknown>);
    if (entries.length === 1 && typeof entries[0] === "string") return entries[0];
  }
  return JSON.stringify(value, null, 2);
}

/** `text` with what it adds to `against` marked green and what it drops red; plain when there is nothing to compare. */
export function OutputDiff({ text, against }: { text: string; against: string | null }) {
  if (against === null || against === text) return <pre className={styles.diff}>{text || <span className="faint">(no output)</span>}</pre>;
  return (
    <pre className={styles.diff}>
      {diffWordsWithSpace(against, text).map((part, i) => (
        <span key={i} className={part.added ? styles.added : part.removed ? styles.removed : undefined}>
          {part.value}
        </span>
      ))}
    </pre>
  );
}
