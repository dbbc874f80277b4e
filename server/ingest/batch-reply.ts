import { reply } from "@/server/http/route";
import type { IngestResult } from "./service";

/**
 * The answer to POST /runs/batch and /runs/multipart: 202 when every run was stored; 207 with
 * `errors` naming each refused run when the others were stored; 422 with the same `errors` when
 * every run of the request was refused (and it carried no feedback), so that a client that stored
 * nothing hears of it: the SDKs take any 2xx for success and warn only on a 4xx (issue 36).
 */
export function batchReply(result: IngestResult, feedbackSent = false): Response {
  const { rejected } = result;
  if (!rejected.length) return reply(202, {});
  if (result.created + result.updated > 0 || feedbackSent) return reply(207, { errors: rejected });
  const [first] = rejected;
  const count = rejected.length === 1 ? "The run" : `All ${rejected.length} runs`;
  return reply(422, {
    detail: `${count} of this request refused, nothing stored (each is named in errors and kept in GET /runs/ingest-errors): ${first.id}: ${first.detail}`,
    errors: rejected,
  });
}
