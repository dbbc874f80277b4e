/** Series colours, in order: charts and the experiments views use the same ones. */
export const PALETTE = ["#5b5bd6", "#10b981", "#f59e0b", "#ef4444", "#0ea5e9", "#a855f7", "#64748b", "#ec4899", "#14b8a6", "#84cc16"];
