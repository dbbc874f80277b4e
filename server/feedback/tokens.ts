import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest, notFound } from "../core/errors";
import { formatMicros, isoFromDb, parseInstant } from "../core/time";
import { publicBaseUrl } from "../http/public-url";
import { hashToken, newLinkToken, sealToken, unsealToken } from "../core/tokens";
import { uuid } from "../core/uuid";
import { score } from "./schema";
import { insertFeedback } from "./store";
import { readFeedback } from "./service";

const DEFAULT_TTL_HOURS = 3;
const MAX_TTL_DAYS = 365;

export const tokenCreate = z.object({
  run_id: uuid,
  feedback_key: z.string().min(1).max(256),
  feedback_config: z.record(z.string(), z.unknown()).nullish(),
  expires_in: z
    .object({
      days: z.number().min(0).nullish(),
      hours: z.number().min(0).nullish(),
      minutes: z.number().min(0).nullish(),
      seconds: z.number().min(0).nullish(),
    })
    .nullish(),
  expires_at: z.union([z.string(), z.number()]).nullish(),
});
export type TokenCreate = z.infer<typeof tokenCreate>;

/** What an end user may send through a link: query parameters on GET, JSON on POST. */
export const tokenFeedback = z.object({
  score,
  value: z.unknown().optional(),
  comment: z.string().max(10_000).nullish(),
  correction: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type TokenFeedback = z.infer<typeof tokenFeedback>;

interface TokenRow {
  id: string;
  run_id: string;
  feedback_key: string;
  feedback_config: Record<string, unknown> | null;
  token_sealed: string;
  expires_at: string;
  created_at: string;
}

const linkFor = (token: string) => `${publicBaseUrl()}/feedback/tokens/${token}`;

function expiryOf(input: TokenCreate): Date {
  let at: number;
  if (input.expires_at !== undefined && input.expires_at !== null) {
    const micros = parseInstant(input.expires_at);
    if (micros === null) throw badRequest("expires_at must be an ISO-8601 time or epoch milliseconds.");
    at = Number(micros / 1000n);
  } else {
    const e = input.expires_in ?? { hours: DEFAULT_TTL_HOURS };
    const seconds = (e.days ?? 0) * 86_400 + (e.hours ?? 0) * 3_600 + (e.minutes ?? 0) * 60 + (e.seconds ?? 0);
    at = Date.now() + seconds * 1000;
  }
  if (at <= Date.now()) throw badRequest("The token's expiry must be in the future.");
  if (at > Date.now() + MAX_TTL_DAYS * 86_400_000) throw badRequest(`A feedback token may live at most ${MAX_TTL_DAYS} days.`);
  return new Date(at);
}

function tokenToWire(row: TokenRow) {
  return {
    id: row.id,
    url: linkFor(unsealToken(row.token_sealed)),
    expires_at: isoFromDb(row.expires_at),
    run_id: row.run_id,
    feedback_key: row.feedback_key,
    feedback_config: row.feedback_config,
    created_at: isoFromDb(row.created_at),
  };
}

/** POST /feedback/tokens: a link an end user can open to leave feedback on one run, until it expires. */
export async function createFeedbackToken(db: Sql, workspaceId: string, input: TokenCreate) {
  const expires = formatMicros(BigInt(expiryOf(input).getTime()) * 1000n);
  // A link hands feedback rights on the run to anyone: only for a run this workspace holds.
  const [run] = await db.query(sql`SELECT 1 FROM runs WHERE id = ${input.run_id} AND workspace_id = ${workspaceId}`);
  if (!run) throw notFound(`Run ${input.run_id} not found.`);
  const token = newLinkToken();
  const [row] = await db.query<TokenRow>(sql`
    INSERT INTO feedback_tokens (id, workspace_id, run_id, feedback_key, feedback_config, token_hash, token_sealed, expires_at)
    VALUES (${randomUUID()}, ${workspaceId}, ${input.run_id}, ${input.feedback_key},
      ${input.feedback_config ? JSON.stringify(input.feedback_config) : null}::jsonb, ${hashToken(token)}, ${sealToken(token)}, ${expires})
    RETURNING *`);
  return tokenToWire(row);
}

export async function listFeedbackTokens(db: Sql, workspaceId: string, runId: string, offset: number, limit: number) {
  const rows = await db.query<TokenRow>(sql`
    SELECT * FROM feedback_tokens WHERE workspace_id = ${workspaceId} AND run_id = ${runId} AND expires_at > now()
    ORDER BY created_at DESC, id LIMIT ${limit} OFFSET ${offset}`);
  return rows.map(tokenToWire);
}

/** Refuses a score or value the key's config does not allow (bounds, categories). */
function checkAgainstConfig(config: Record<string, unknown> | null, input: TokenFeedback): void {
  if (!config) return;
  if (config.type === "continuous" && typeof input.score === "number") {
    const min = typeof config.min === "number" ? config.min : -Infinity;
    const max = typeof config.max === "number" ? config.max : Infinity;
    if (input.score < min || input.score > max) throw badRequest(`score must be between ${min} and ${max}.`);
  }
  if (config.type === "categorical" && Array.isArray(config.categories)) {
    const allowed = config.categories.map((c) => (c as { value?: unknown }).value);
    const given = input.score ?? input.value;
    if (given !== undefined && given !== null && !allowed.some((a) => a === given || String(a) === String(given))) {
      throw badRequest(`This feedback takes one of: ${allowed.map(String).join(", ")}.`);
    }
  }
}

/**
 * GET|POST /feedback/tokens/{token}: feedback from someone holding the link, no key needed. The
 * answer shows what was recorded, not the workspace's project or trace ids.
 */
export async function submitWithToken(db: Sql, token: string, input: TokenFeedback) {
  const [link] = await db.query<TokenRow & { workspace_id: string }>(sql`
    SELECT * FROM feedback_tokens WHERE token_hash = ${hashToken(token)} AND expires_at > now()`);
  if (!link) throw notFound("This feedback link is invalid or has expired.");
  checkAgainstConfig(link.feedback_config, input);
  const [feedbackId] = await insertFeedback(db, link.workspace_id, [
    {
      run_id: link.run_id,
      key: link.feedback_key,
      score: input.score,
      value: input.value,
      comment: input.comment,
      correction: input.correction,
      feedback_config: link.feedback_config,
      feedback_source: { type: "app", metadata: { ...(input.metadata ?? {}), feedback_token_id: link.id } },
    },
  ]);
  const { id, run_id, key, score, value, comment, correction, created_at } = await readFeedback(db, link.workspace_id, feedbackId);
  return { id, run_id, key, score, value, comment, correction, created_at };
}
