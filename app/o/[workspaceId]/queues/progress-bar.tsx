import styles from "./queues.module.css";

/** Runs done out of all, as a bar and a count. */
export function ProgressBar({ done, total }: { done: number; total: number }) {
  const share = total ? done / total : 0;
  return (
    <div className={styles.progress} title={`${done} of ${total} runs done`}>
      <div className={styles.bar} role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
        <div className={styles.barFill} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      <span className="num">
        {done} / {total}
      </span>
    </div>
  );
}
