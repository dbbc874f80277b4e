import type { Sql } from "../db/client";
import { badRequest, notFound } from "../core/errors";
import { allExamples } from "./public-datasets";
import { sharedRunTree, sharedRuns } from "./public-runs";
import type { SharedResource } from "./service";

export type DownloadFormat = "json" | "jsonl" | "csv";

const CONTENT_TYPE: Record<DownloadFormat, string> = {
  json: "application/json",
  jsonl: "application/x-ndjson",
  csv: "text/csv; charset=utf-8",
};

/** RFC 4180 quoting; objects are written as their JSON text. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function toCsv(columns: string[], rows: Record<string, unknown>[]): string {
  return [columns.join(","), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(","))].join("\r\n") + "\r\n";
}

const EXAMPLE_COLUMNS = ["id", "inputs", "outputs", "metadata", "split", "created_at", "modified_at"];
const RUN_COLUMNS = [
  "id",
  "parent_run_id",
  "name",
  "run_type",
  "status",
  "start_time",
  "end_time",
  "inputs",
  "outputs",
  "error",
  "total_tokens",
  "total_cost",
];

/** GET /public/download/{token}: the shared trace (its runs) or dataset (its current examples) as one file. */
export async function downloadShared(db: Sql, shared: SharedResource, format: DownloadFormat): Promise<Response> {
  if (shared.kind === "thread")
    throw notFound("A shared thread is read through the public runs API (POST /api/v2/public/{token}/runs/query).");
  let body: string;
  let name: string;
  if (shared.kind === "run") {
    name = `trace-${shared.resourceId}`;
    if (format === "json") body = JSON.stringify(await sharedRunTree(db, shared.workspaceId, shared.resourceId), null, 2);
    else {
      const runs = await sharedRuns(db, shared.workspaceId, shared.resourceId);
      body = format === "jsonl" ? runs.map((r) => JSON.stringify(r)).join("\n") + "\n" : toCsv(RUN_COLUMNS, runs);
    }
  } else {
    name = `dataset-${shared.resourceId}`;
    const examples = (await allExamples(db, shared.workspaceId, shared.resourceId)).map((e) => ({
      ...e,
      split: (e.metadata as { dataset_split?: unknown } | null)?.dataset_split ?? null,
    }));
    body =
      format === "json"
        ? JSON.stringify(examples, null, 2)
        : format === "jsonl"
          ? examples.map((e) => JSON.stringify(e)).join("\n") + "\n"
          : toCsv(EXAMPLE_COLUMNS, examples);
  }
  return new Response(body, {
    headers: {
      "content-type": CONTENT_TYPE[format],
      "content-disposition": `attachment; filename="${name}.${format}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

export function parseFormat(value: string | undefined): DownloadFormat {
  const format = (value ?? "json").toLowerCase();
  if (format === "json" || format === "jsonl" || format === "csv") return format;
  throw badRequest(`format must be json, jsonl or csv, not "${value}".`);
}
