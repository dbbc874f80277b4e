import { useEffect } from "react";
import type { RunSummary } from "@/app/trpc-types";

/** With a run open: Escape closes it, ↑/↓ (or k/j) open the previous/next run of the list. */
export function useRunKeys(selectedId: string | null, rows: RunSummary[], select: (run: RunSummary) => void, onClose: () => void) {
  useEffect(() => {
    if (!selectedId) return;
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable]")) return;
      if (e.key === "Escape") return onClose();
      const step = e.key === "ArrowDown" || e.key === "j" ? 1 : e.key === "ArrowUp" || e.key === "k" ? -1 : 0;
      if (!step) return;
      const next = rows[rows.findIndex((r) => r.id === selectedId) + step];
      if (next) {
        e.preventDefault();
        select(next);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [selectedId, onClose, rows, select]);
}
