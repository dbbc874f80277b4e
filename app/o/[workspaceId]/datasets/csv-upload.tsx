"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { parse } from "csv-parse/browser/esm/sync";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import styles from "./datasets.module.css";

/** The header row of a CSV file (csv-parse, as the server reads it), or why it cannot be read. */
function headerOf(csv: string): { columns?: string[]; error?: string } {
  try {
    const [header] = parse(csv, { bom: true, to_line: 1, relax_column_count: true }) as string[][];
    return header?.length ? { columns: header } : { error: "The file is empty: it needs a header row." };
  } catch (error) {
    return { error: `The file cannot be read as CSV: ${(error as Error).message}` };
  }
}

/** A new dataset from a CSV file: pick which columns are inputs and which are reference outputs. */
export function CsvUpload({ workspaceId, onCancel }: { workspaceId: string; onCancel: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; csv: string } | null>(null);
  const [name, setName] = useState("");
  const [roles, setRoles] = useState<Record<string, "input" | "output" | "skip">>({});
  const upload = useMutation(
    trpc.datasets.uploadCsv.mutationOptions({
      onSuccess: (made) => {
        void queryClient.invalidateQueries({ queryKey: trpc.datasets.list.pathKey() });
        router.push(`/o/${workspaceId}/datasets/${made.id}`);
      },
    }),
  );
  const header = file ? headerOf(file.csv) : null;
  const columns = header?.columns ?? [];
  const keys = (role: "input" | "output") =>
    columns.filter((c, i) => (roles[c] ?? (i === columns.length - 1 && i > 0 ? "output" : "input")) === role);
  const choose = async (chosen: File | undefined) => {
    if (!chosen) return;
    const csv = await chosen.text();
    setFile({ name: chosen.name, csv });
    setName((n) => n || chosen.name.replace(/\.csv$/i, ""));
    setRoles({});
  };
  return (
    <form
      className={`card ${styles.createForm}`}
      style={{ flexDirection: "column", alignItems: "stretch" }}
      data-testid="csv-upload"
      onSubmit={(e) => {
        e.preventDefault();
        if (file) upload.mutate({ workspaceId, name, csv: file.csv, inputKeys: keys("input"), outputKeys: keys("output") });
      }}
    >
      <div className="row" style={{ flexWrap: "wrap" }}>
        <input type="file" accept=".csv,text/csv" aria-label="CSV file" onChange={(e) => void choose(e.target.files?.[0])} />
        <input
          className="input"
          placeholder="Dataset name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-label="Dataset name"
        />
      </div>
      {header?.error && <span className="err-text">{header.error}</span>}
      {columns.length > 0 && (
        <div className="row" style={{ flexWrap: "wrap", gap: 12 }}>
          {columns.map((c, i) => (
            <label key={`${c}-${i}`} className="row" style={{ gap: 6 }}>
              <code>{c}</code>
              <select
                className="select"
                aria-label={`Column ${c}`}
                value={keys("input").includes(c) ? "input" : keys("output").includes(c) ? "output" : "skip"}
                onChange={(e) => setRoles({ ...roles, [c]: e.target.value as "input" | "output" | "skip" })}
              >
                <option value="input">input</option>
                <option value="output">reference output</option>
                <option value="skip">leave out</option>
              </select>
            </label>
          ))}
        </div>
      )}
      <div className="row">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!file || !name.trim() || keys("input").length === 0 || upload.isPending}
        >
          Create from CSV
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        {upload.error && (
          <span className="err-text" role="alert">
            {upload.error.message}
          </span>
        )}
      </div>
    </form>
  );
}
