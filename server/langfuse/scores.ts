import { randomUUID } from "node:crypto";
import { describeZodError } from "../core/errors";
import { feedbackCreate } from "../feedback/schema";
import { runIdOf } from "./ids";
import type { ScoreBody } from "./schema";

type Obj = Record<string, unknown>;
const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** Numeric and boolean scores are feedback scores (booleans 1/0); categorical ones are values. */
function scoreAndValue(body: ScoreBody): { score?: number; value?: unknown } {
  const { value, dataType } = body;
  if (typeof value === "boolean") return { score: Number(value) };
  if (typeof value === "number") return dataType === "CATEGORICAL" ? { value: String(value) } : { score: value };
  if (dataType === "BOOLEAN" && /^(true|false)$/i.test(value)) return { score: /^true$/i.test(value) ? 1 : 0 };
  return { value };
}

/**
 * A `score-create` as feedback on its observation's run, else on its trace's root run; a score
 * before its run is kept and attached when the run arrives (feedback's own rule). Scores on a
 * session or dataset run alone have no run to hang on, and are refused.
 */
export function scoreToFeedback(body: ScoreBody, eventTime: unknown): { feedback: Obj } | { error: string } {
  const target = body.observationId ?? body.traceId;
  if (!target) {
    return {
      error:
        "A score needs a traceId or an observationId: Tracelight keeps scores as feedback on a run, not on a session or dataset run alone.",
    };
  }
  const id = body.id ?? randomUUID();
  const feedback = compact({
    id: runIdOf(id),
    run_id: runIdOf(target),
    trace_id: body.traceId ? runIdOf(body.traceId) : undefined,
    key: body.name,
    ...scoreAndValue(body),
    comment: body.comment,
    feedback_source: {
      type: "api",
      metadata: compact({
        langfuse_score_id: id,
        source: body.source,
        data_type: body.dataType,
        config_id: body.configId,
        environment: body.environment,
      }),
    },
    extra: body.metadata === undefined || body.metadata === null ? undefined : { metadata: body.metadata },
    created_at: body.timestamp ?? eventTime,
  });
  const checked = feedbackCreate.safeParse(feedback);
  return checked.success ? { feedback } : { error: describeZodError(checked.error, "score") };
}
