import styles from "./compare.module.css";

/** A 0–1 score as a number with a thin bar under it (other ranges show the number only). */
export function ScoreBar({ value }: { value: number | null }) {
  if (value === null) return <span className="faint">–</span>;
  const inRange = value >= 0 && value <= 1;
  return (
    <span className={styles.scoreBar} title={String(value)}>
      {value.toFixed(2)}
      {inRange && (
        <span className={styles.barTrack}>
          <span className={styles.barFill} style={{ width: `${value * 100}%` }} />
        </span>
      )}
    </span>
  );
}

/** A change against the baseline: green up, red down, nothing for none. */
export function Delta({ value }: { value: number | null | undefined }) {
  if (value === null || value === undefined || Math.abs(value) < 1e-9) return null;
  return (
    <span className={value > 0 ? styles.up : styles.down}>
      {value > 0 ? "▲" : "▼"} {Math.abs(value).toFixed(2)}
    </span>
  );
}

/** A score's colour: on a 0–1 scale, green from 0.8, amber from 0.5, red below; other scales stay neutral. */
export function scoreTone(value: number | null | undefined): "good" | "fair" | "poor" | null {
  if (value == null || value < 0 || value > 1) return null;
  return value >= 0.8 ? "good" : value >= 0.5 ? "fair" : "poor";
}
const TONE_CLASS = { good: styles.chipGood, fair: styles.chipFair, poor: styles.chipPoor };
export const toneClass = (value: number | null | undefined) => {
  const tone = scoreTone(value);
  return tone ? TONE_CLASS[tone] : "";
};

/** One key's score in a cell: the mean (coloured by its value), with ± spread over repetitions. */
export function ScoreChip({ name, mean, spread, n }: { name: string; mean: number; spread: number; n: number }) {
  return (
    <span
      className={`${styles.chip} ${toneClass(mean)}`}
      data-tone={scoreTone(mean) ?? undefined}
      title={n > 1 ? `${name}: mean ${mean} over ${n} repetitions, spread ${spread.toFixed(3)}` : `${name}: ${mean}`}
    >
      <span className="faint">{name}</span> {mean.toFixed(2)}
      {n > 1 && <span className="faint"> ±{spread.toFixed(2)}</span>}
    </span>
  );
}
