import type { RouterOutputs } from "@/app/trpc-types";
import { RunTypeBadge } from "../../_components/ui";
import styles from "../queues.module.css";

type Item = RouterOutputs["queues"]["items"][number];

/**
 * One cell of a queue item's row: the run's name (or output), or, for a pairwise item, run A's
 * above run B's, each marked with its side.
 */
export function RunsOfItem({ item, field }: { item: Item; field: "name" | "output_preview" }) {
  const sides = item.paired_run_id
    ? ([
        ["A", item],
        ["B", item.paired],
      ] as const)
    : ([[null, item]] as const);
  return (
    <span className={styles.itemRuns}>
      {sides.map(([side, run]) => (
        <span key={side ?? "run"} className={styles.itemRun}>
          {side && <span className={`${styles.sideLabel} ${styles.sideLabelSmall}`}>{side}</span>}
          {!run ? (
            <span className="muted">Run {side} no longer exists.</span>
          ) : field === "name" ? (
            <>
              <RunTypeBadge runType={run.run_type} />
              {run.name}
            </>
          ) : (
            <span className={styles.previewText}>{run.output_preview}</span>
          )}
        </span>
      ))}
    </span>
  );
}
