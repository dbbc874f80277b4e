import styles from "./progress-bar.module.css";

/** Done out of all, as a bar and a count (`unit` names what is counted, in the tooltip). */
export function ProgressBar({ done, total, unit = "runs" }: { done: number; total: number; unit?: string }) {
  const share = total ? done / total : 0;
  return (
    <div className={styles.progress} title={`${done} of ${total} ${unit} done`}>
      <div className={styles.bar} role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
        <div className={styles.barFill} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      <span className="num">
        {done} / {total}
      </span>
    </div>
  );
}
