"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { AddToDataset } from "../../_components/run-detail/add-to-dataset";
import { AddToQueue } from "../../_components/run-detail/add-to-queue";
import { BulkShare } from "./bulk-share";
import { download, runsCsv } from "./export";
import styles from "./runs.module.css";

/** What can be done with the rows ticked in the runs table: add them to a dataset or an annotation queue, export or share them. */
export function BulkActions({ workspaceId, runIds, onClear }: { workspaceId: string; runIds: string[]; onClear: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  if (runIds.length === 0) return null;
  const exportAs = async (format: "json" | "csv") => {
    setProblem(null);
    try {
      const runs = await queryClient.fetchQuery(trpc.runs.export.queryOptions({ workspaceId, runIds: runIds.slice(0, 100) }));
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
      if (format === "json") download(`runs-${stamp}.json`, "application/json", JSON.stringify(runs, null, 2));
      else download(`runs-${stamp}.csv`, "text/csv", runsCsv(runs));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <div className={styles.bulkBar} role="toolbar" aria-label="Selected runs" data-testid="bulk-actions">
      <b>{runIds.length} selected</b>
      <AddToDataset workspaceId={workspaceId} runIds={runIds} align="left" />
      <AddToQueue workspaceId={workspaceId} runIds={runIds} align="left" />
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => void exportAs("json")}
        title={runIds.length > 100 ? "The first 100" : undefined}
      >
        Export JSON
      </button>
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => void exportAs("csv")}
        title={runIds.length > 100 ? "The first 100" : undefined}
      >
        Export CSV
      </button>
      <BulkShare workspaceId={workspaceId} runIds={runIds} />
      {problem ? <span className="err-text">{problem}</span> : null}
      <span className="grow" />
      <button type="button" className="btn btn-sm btn-ghost" onClick={onClear}>
        Clear
      </button>
    </div>
  );
}
