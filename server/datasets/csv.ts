import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import type { Part } from "../http/multipart";
import { createExamples } from "./examples";
import { dataType } from "./schema";
import { datasetWire, findDataset, insertDataset, type WireDataset } from "./service";

/** RFC 4180 rows: quoted fields may hold commas, newlines and doubled quotes; CRLF or LF line ends. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field), (field = "");
      rows.push(row), (row = []);
    } else field += c;
  }
  if (quoted) throw badRequest("The CSV file ends inside a quoted field.");
  if (field !== "" || row.length > 0) row.push(field), rows.push(row);
  return rows.filter((r) => !(r.length === 1 && r[0] === ""));
}

const text = (parts: Part[], name: string) => parts.find((p) => p.name === name)?.body.toString("utf8");
const texts = (parts: Part[], name: string) => parts.filter((p) => p.name === name).map((p) => p.body.toString("utf8"));

/**
 * POST /datasets/upload: a new dataset from a CSV file; input_keys and output_keys (repeatable
 * form fields) name the columns that become each example's inputs and outputs.
 */
export async function uploadCsv(db: Sql, workspaceId: string, parts: Part[]): Promise<WireDataset> {
  const file = parts.find((p) => p.name === "file");
  if (!file) throw badRequest("Send the CSV as a multipart part named file.");
  const inputKeys = texts(parts, "input_keys");
  const outputKeys = texts(parts, "output_keys");
  if (inputKeys.length === 0) throw badRequest("Name the input columns with input_keys.");
  const type = text(parts, "data_type");
  const parsedType = type ? dataType.safeParse(type) : undefined;
  if (parsedType && !parsedType.success) throw badRequest(`Invalid data_type ${JSON.stringify(type)}: must be one of kv, llm, chat.`);
  const name = (text(parts, "name") ?? file.filename ?? "").trim();
  if (!name) throw badRequest("Name the dataset with a name field (or a file name).");
  const rows = parseCsv(file.body.toString("utf8"));
  if (rows.length === 0) throw badRequest("The CSV file is empty: it needs a header row.");
  const [header, ...records] = rows;
  const missing = [...inputKeys, ...outputKeys].filter((k) => !header.includes(k));
  if (missing.length) throw badRequest(`The CSV header has no column ${missing.map((k) => JSON.stringify(k)).join(", ")} (columns: ${header.join(", ")}).`);
  records.forEach((r, i) => {
    if (r.length !== header.length) throw badRequest(`CSV row ${i + 2} has ${r.length} fields; the header has ${header.length}.`);
  });
  const pick = (r: string[], keys: string[]) => Object.fromEntries(keys.map((k) => [k, r[header.indexOf(k)]]));
  return db.tx(async (t) => {
    const dataset = await insertDataset(t, workspaceId, {
      name, description: text(parts, "description") ?? null, data_type: parsedType?.data ?? "kv", extra: { source: "csv_upload" },
    });
    await createExamples(t, workspaceId, dataset.id, records.map((r) => ({ inputs: pick(r, inputKeys), outputs: outputKeys.length ? pick(r, outputKeys) : null })));
    return datasetWire(t, workspaceId, await findDataset(t, workspaceId, dataset.id));
  });
}
