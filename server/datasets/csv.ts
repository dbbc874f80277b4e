import { parse } from "csv-parse/sync";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { partText, type Part } from "../http/multipart";
import { createExamples } from "./examples";
import { dataType } from "./schema";
import { datasetWire, findDataset, insertDataset } from "./service";
import type { WireDataset } from "./schema";

/**
 * RFC 4180 rows (csv-parse): quoted fields may hold commas, newlines and doubled quotes; CRLF or LF
 * line ends; a byte-order mark is dropped. Rows of a different length are kept for the caller to
 * name; a malformed file is a 400 that says where.
 */
export function parseCsv(text: string): string[][] {
  try {
    return parse(text, { bom: true, record_delimiter: ["\r\n", "\n", "\r"], relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    throw badRequest(`The CSV file cannot be read: ${(error as Error).message}`);
  }
}

const text = async (parts: Part[], name: string) => {
  const part = parts.find((p) => p.name === name);
  return part && partText(part);
};
const texts = (parts: Part[], name: string) => Promise.all(parts.filter((p) => p.name === name).map(partText));

/** A CSV file to become a dataset: the columns named by inputKeys/outputKeys become each example's inputs and outputs. */
export interface CsvUpload {
  csv: string;
  name: string;
  description?: string | null;
  dataType?: "kv" | "llm" | "chat";
  inputKeys: string[];
  outputKeys: string[];
  /** JSON Schemas every row's inputs and outputs must match (example-schemas.ts). */
  inputsSchema?: Record<string, unknown> | null;
  outputsSchema?: Record<string, unknown> | null;
}

/** A form field holding a JSON Schema document (absent or empty: none). */
async function schemaField(parts: Part[], name: string): Promise<Record<string, unknown> | null> {
  const value = (await text(parts, name))?.trim();
  if (!value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw badRequest(`The ${name} field is not valid JSON.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw badRequest(`The ${name} field must be a JSON object.`);
  return parsed as Record<string, unknown>;
}

/**
 * POST /datasets/upload: a new dataset from a CSV file; input_keys and output_keys (repeatable
 * form fields) name the columns that become each example's inputs and outputs, and the optional
 * inputs_schema_definition / outputs_schema_definition fields the schemas every row must match.
 */
export async function uploadCsv(db: Sql, workspaceId: string, parts: Part[]): Promise<WireDataset> {
  const file = parts.find((p) => p.name === "file");
  if (!file) throw badRequest("Send the CSV as a multipart part named file.");
  const type = await text(parts, "data_type");
  const parsedType = type ? dataType.safeParse(type) : undefined;
  if (parsedType && !parsedType.success) throw badRequest(`Invalid data_type ${JSON.stringify(type)}: must be one of kv, llm, chat.`);
  return datasetFromCsv(db, workspaceId, {
    csv: await partText(file),
    name: (await text(parts, "name")) ?? file.filename ?? "",
    description: (await text(parts, "description")) ?? null,
    dataType: parsedType?.data,
    inputKeys: await texts(parts, "input_keys"),
    outputKeys: await texts(parts, "output_keys"),
    inputsSchema: await schemaField(parts, "inputs_schema_definition"),
    outputsSchema: await schemaField(parts, "outputs_schema_definition"),
  });
}

/** A new dataset of one example per CSV row, in one transaction. */
export async function datasetFromCsv(db: Sql, workspaceId: string, upload: CsvUpload): Promise<WireDataset> {
  const { inputKeys, outputKeys } = upload;
  if (inputKeys.length === 0) throw badRequest("Name the input columns with input_keys.");
  const name = upload.name.trim();
  if (!name) throw badRequest("Name the dataset with a name field (or a file name).");
  const rows = parseCsv(upload.csv);
  if (rows.length === 0) throw badRequest("The CSV file is empty: it needs a header row.");
  const [header, ...records] = rows;
  const missing = [...inputKeys, ...outputKeys].filter((k) => !header.includes(k));
  if (missing.length)
    throw badRequest(`The CSV header has no column ${missing.map((k) => JSON.stringify(k)).join(", ")} (columns: ${header.join(", ")}).`);
  records.forEach((r, i) => {
    if (r.length !== header.length) throw badRequest(`CSV row ${i + 2} has ${r.length} fields; the header has ${header.length}.`);
  });
  const pick = (r: string[], keys: string[]) => Object.fromEntries(keys.map((k) => [k, r[header.indexOf(k)]]));
  return db.transaction(async (t) => {
    const dataset = await insertDataset(t, workspaceId, {
      name,
      description: upload.description ?? null,
      data_type: upload.dataType ?? "kv",
      extra: { source: "csv_upload" },
      inputs_schema_definition: upload.inputsSchema,
      outputs_schema_definition: upload.outputsSchema,
    });
    await createExamples(
      t,
      workspaceId,
      dataset.id,
      records.map((r) => ({ inputs: pick(r, inputKeys), outputs: outputKeys.length ? pick(r, outputKeys) : null })),
    );
    return datasetWire(t, workspaceId, await findDataset(t, workspaceId, dataset.id));
  });
}
