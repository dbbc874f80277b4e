import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { FeedbackToken, Prisma } from "../db/generated/client";
import { badRequest, notFound } from "../core/errors";
import { shallow } from "../core/json-depth";
import { isoFromDb, parseInstant } from "../core/time";
import { publicBaseUrl } from "../http/public-url";
import { hashToken, newLinkToken, sealToken, unsealToken } from "../core/tokens";
import { isUuid, uuid } from "../core/uuid";
import { score } from "./schema";
import { insertFeedback } from "./store";
import { readFeedback } from "./service";
import { wireFeedback } from "./wire";

const DEFAULT_TTL_HOURS = 3;
const MAX_TTL_DAYS = 365;

export const tokenCreate = z.object({
  run_id: uuid,
  feedback_key: z.string().min(1).max(256),
  feedback_config: shallow(z.record(z.string(), z.unknown())).nullish(),
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
  value: shallow(z.unknown()).optional(),
  comment: z.string().max(10_000).nullish(),
  correction: shallow(z.unknown()).optional(),
  metadata: shallow(z.record(z.string(), z.unknown())).nullish(),
});
export type TokenFeedback = z.infer<typeof tokenFeedback>;

/** A feedback link as its maker sees it (the `FeedbackIngestToken` the SDKs read). */
export const wireFeedbackToken = z.object({
  id: z.string(),
  url: z.string(),
  expires_at: z.string(),
  run_id: z.string(),
  feedback_key: z.string(),
  feedback_config: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type WireFeedbackToken = z.infer<typeof wireFeedbackToken>;

/** What someone holding the link recorded (never the workspace's project or trace ids). */
export const wireTokenFeedback = wireFeedback.pick({
  id: true,
  run_id: true,
  key: true,
  score: true,
  value: true,
  comment: true,
  correction: true,
  created_at: true,
});

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

function tokenToWire(row: FeedbackToken): WireFeedbackToken {
  return {
    id: row.id,
    url: linkFor(unsealToken(row.tokenSealed)),
    expires_at: isoFromDb(row.expiresAt)!,
    run_id: row.runId,
    feedback_key: row.feedbackKey,
    feedback_config: (row.feedbackConfig ?? null) as Record<string, unknown> | null,
    created_at: isoFromDb(row.createdAt)!,
  };
}

/** POST /feedback/tokens: a link an end user can open to leave feedback on one run, until it expires. */
export async function createFeedbackToken(db: Sql, workspaceId: string, input: TokenCreate): Promise<WireFeedbackToken> {
  const expiresAt = expiryOf(input);
  // A link hands feedback rights on the run to anyone: only for a run this workspace holds.
  if (!(await db.prisma.run.count({ where: { id: input.run_id, workspaceId } }))) throw notFound(`Run ${input.run_id} not found.`);
  const token = newLinkToken();
  const row = await db.prisma.feedbackToken.create({
    data: {
      id: randomUUID(),
      workspaceId,
      runId: input.run_id,
      feedbackKey: input.feedback_key,
      feedbackConfig: (input.feedback_config ?? undefined) as Prisma.InputJsonObject | undefined,
      tokenHash: hashToken(token),
      tokenSealed: sealToken(token),
      expiresAt,
    },
  });
  return tokenToWire(row);
}

export async function listFeedbackTokens(
  db: Sql,
  workspaceId: string,
  runId: string,
  offset: number,
  limit: number,
): Promise<WireFeedbackToken[]> {
  const rows = await db.prisma.feedbackToken.findMany({
    where: { workspaceId, runId, expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    skip: offset,
    take: limit,
  });
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
 * link is named by the token in its `url` (a random UUID; 32 bytes base64url before) or by its `id`
 * (a random UUID, shown only to the workspace like the url): the Python client sends either. The answer shows what was recorded,
 * not the workspace's project or trace ids.
 */
export async function submitWithToken(db: Sql, token: string, input: TokenFeedback): Promise<z.infer<typeof wireTokenFeedback>> {
  const named = isUuid(token)
    ? { OR: [{ id: token.toLowerCase() }, { tokenHash: hashToken(token.toLowerCase()) }] }
    : { tokenHash: hashToken(token) };
  const link = await db.prisma.feedbackToken.findFirst({ where: { ...named, expiresAt: { gt: new Date() } } });
  if (!link) throw notFound("This feedback link is invalid or has expired.");
  const config = (link.feedbackConfig ?? null) as Record<string, unknown> | null;
  checkAgainstConfig(config, input);
  const [feedbackId] = await insertFeedback(db, link.workspaceId, [
    {
      run_id: link.runId,
      key: link.feedbackKey,
      score: input.score,
      value: input.value,
      comment: input.comment,
      correction: input.correction,
      feedback_config: config,
      feedback_source: { type: "app", metadata: { ...(input.metadata ?? {}), feedback_token_id: link.id } },
    },
  ]);
  const { id, run_id, key, score, value, comment, correction, created_at } = await readFeedback(db, link.workspaceId, feedbackId);
  return { id, run_id, key, score, value, comment, correction, created_at };
}
