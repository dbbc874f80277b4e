import { badRequest } from "../core/errors";
import { partBytes, type Part } from "../http/multipart";
import { parseKeepingBytes } from "../db/storable";
import type { IncomingAttachment } from "../blobs/attachments";

const FIELDS = new Set(["inputs", "outputs", "events", "extra", "error", "serialized"]);

export interface MultipartIngest {
  /** The runs as sent; ingestBatch checks each on its own. */
  post: Record<string, unknown>[];
  patch: Record<string, unknown>[];
  attachments: IncomingAttachment[];
  feedback: unknown[];
}

/**
 * The SDKs send `[Unserializable]` when they cannot encode a value: keep the text rather than fail.
 * The bytes are kept with the value, so the runs' INSERT splices them instead of serialising it again.
 */
async function lenientJson(part: Part): Promise<unknown> {
  const bytes = await partBytes(part);
  try {
    return parseKeepingBytes(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

async function strictJson(part: Part): Promise<unknown> {
  const text = (await partBytes(part)).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Multipart part "${part.name}" is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads the LangSmith multipart layout: `post.<id>` / `patch.<id>` with the run, then one part per
 * large field (`post.<id>.inputs` …), `attachment.<id>.<name>` bytes and `feedback.<id>` JSON.
 */
export async function readMultipartIngest(parts: Part[]): Promise<MultipartIngest> {
  const runs = new Map<string, { kind: "post" | "patch"; fields: Record<string, unknown> }>();
  const out: MultipartIngest = { post: [], patch: [], attachments: [], feedback: [] };
  const entry = (kind: "post" | "patch", id: string) => {
    const key = `${kind}.${id}`;
    let run = runs.get(key);
    if (!run) runs.set(key, (run = { kind, fields: { id } }));
    return run;
  };
  for (const part of parts) {
    const [kind, id, ...rest] = part.name.split(".");
    if (kind === "post" || kind === "patch") {
      if (!id) throw badRequest(`Multipart part "${part.name}" has no run id.`);
      const run = entry(kind, id);
      if (rest.length === 0) {
        const body = await strictJson(part);
        if (typeof body !== "object" || body === null || Array.isArray(body))
          throw badRequest(`Multipart part "${part.name}" must be a JSON object.`);
        Object.assign(run.fields, body, { id });
      } else if (FIELDS.has(rest.join("."))) {
        run.fields[rest.join(".")] = await lenientJson(part);
      } else {
        throw badRequest(
          `Multipart part "${part.name}": unknown run field "${rest.join(".")}"; expected one of ${[...FIELDS].join(", ")}.`,
        );
      }
    } else if (kind === "attachment") {
      if (!id || rest.length === 0) throw badRequest(`Multipart part "${part.name}" must be named attachment.<run_id>.<name>.`);
      const name = rest.join(".");
      if (name.length > 1000 || name.includes("\u0000"))
        throw badRequest(`Multipart part "${part.name.slice(0, 80)}…": an attachment name is at most 1,000 characters, without U+0000.`);
      if (out.attachments.some((a) => a.runId === id && a.name === name))
        throw badRequest(`Multipart part "${part.name}" appears twice: each attachment of a run needs its own name.`);
      out.attachments.push({
        runId: id,
        name: rest.join("."),
        mimeType: part.contentType.split(";")[0].trim(),
        // Copied out of the request's buffer (kept small), or the file it was streamed to.
        content: part.spooled ?? Buffer.from(part.body!),
      });
    } else if (kind === "feedback") {
      out.feedback.push({ id, ...((await strictJson(part)) as object) });
    } else {
      throw badRequest(`Multipart part "${part.name}": expected a name starting with post., patch., attachment. or feedback.`);
    }
  }
  for (const { kind, fields } of runs.values()) out[kind].push(fields);
  const known = new Set([...out.post, ...out.patch].map((r) => r.id));
  const orphan = out.attachments.find((a) => !known.has(a.runId));
  if (orphan) throw badRequest(`Attachment "${orphan.name}" names run ${orphan.runId}, which is not in this request.`);
  return out;
}
