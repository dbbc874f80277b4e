import type { AnnotationQueueRun } from "../../db/generated/client";
import { badRequest } from "../../core/errors";
import type { RubricItem } from "./schema";

/** The key a pairwise queue without a rubric records its preference under. */
export const DEFAULT_PREFERENCE_KEY = "preference";

type Choice = "A" | "B" | "equal";
type Answer = { key: string; score: number | null; value: string | null; comment: string | null };

/** How one run of the pair fared, from its own side: better, worse or equal. */
const sideOf = (choice: Choice, side: "A" | "B") => (choice === "equal" ? "equal" : choice === side ? "better" : "worse");

/**
 * A pairwise review as feedback on both runs, as LangSmith's pairwise queues record it: binary
 * per rubric key — the preferred run 1 and the other 0, both 1 when equal ("both are better") —
 * with `value` saying better / worse / equal from that run's side. Every rubric key needs a
 * choice; a queue without a rubric asks one question, `preference`.
 */
export function preferenceAnswers(
  rubric: RubricItem[],
  item: Pick<AnnotationQueueRun, "runId" | "pairedRunId">,
  preferences: { key: string; choice: Choice; comment?: string | null }[],
  note: string | null | undefined,
): [string, Answer[]][] {
  if (!item.pairedRunId) throw badRequest("This item of a pairwise queue has no second run to compare with.");
  const keys = rubric.length ? rubric.map((r) => r.feedback_key) : [DEFAULT_PREFERENCE_KEY];
  const given = new Map(preferences.map((p) => [p.key, p]));
  const unknown = preferences.find((p) => !keys.includes(p.key));
  if (unknown) throw badRequest(`"${unknown.key}" is not a question of this queue's rubric (${keys.join(", ")}).`);
  const missing = keys.filter((k) => !given.has(k));
  if (missing.length) throw badRequest(`Choose A, B or equal for ${missing.map((k) => `"${k}"`).join(", ")}.`);
  const side = (s: "A" | "B"): Answer[] => [
    ...keys.map((key) => {
      const p = given.get(key)!;
      const fared = sideOf(p.choice, s);
      return { key, score: fared === "worse" ? 0 : 1, value: fared, comment: p.comment ?? null };
    }),
    ...(note ? [{ key: "note", score: null, value: null, comment: note }] : []),
  ];
  return [
    [item.runId, side("A")],
    [item.pairedRunId, side("B")],
  ];
}

/** The reviewer's earlier choices read back from run A's feedback (value better / worse / equal). */
export function choicesOf(answers: { key: string; value: unknown; comment: string | null }[]) {
  const choice: Record<string, Choice> = { better: "A", worse: "B", equal: "equal" };
  return answers.flatMap((a) =>
    typeof a.value === "string" && choice[a.value] ? [{ key: a.key, choice: choice[a.value], comment: a.comment }] : [],
  );
}
