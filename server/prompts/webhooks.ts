import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { PromptWebhook } from "../db/generated/client";
import { AppError, notFound } from "../core/errors";
import { extraHeaders } from "../core/headers";
import { decryptSecret, encryptSecret } from "../core/secret";
import { isoFromDb } from "../core/time";
import { isUuid } from "../core/uuid";
import { checkEgressUrl, postJson } from "../egress/http";
import { defineQueue, onJobs, type Job } from "../jobs/queue";
import { recordAudit } from "../audit/record";

const trigger = z.enum(["commit", "tag:create", "tag:update"]);

const fields = {
  url: z.string().min(1).max(2048),
  headers: extraHeaders.nullish(),
  include_prompts: z.array(z.string().min(1).max(200)).max(1000).nullish(),
  exclude_prompts: z.array(z.string().min(1).max(200)).max(1000).nullish(),
  triggers: z.array(trigger).max(3).nullish(),
};

/** POST /api/v1/prompt-webhooks (the client's `promptWebhooks.create`). */
export const promptWebhookCreate = z.object({ ...fields, id: z.string().nullish() });
/** PATCH /api/v1/prompt-webhooks/{id}: what is sent changes. */
export const promptWebhookUpdate = z.object({ ...fields, url: fields.url.nullish() });

/** What a webhook receives (and what `test` sends): the prompt, the commit, the event. */
export const promptEvent = z.looseObject({
  event: trigger,
  prompt_id: z.string(),
  prompt_name: z.string(),
  commit_hash: z.string(),
  created_at: z.string(),
  created_by: z.string(),
  manifest: z.record(z.string(), z.unknown()),
  tag_name: z.string().nullish(),
});
export type PromptEvent = z.infer<typeof promptEvent>;

export const promptWebhookTest = z.object({
  webhook: promptWebhookCreate.omit({ id: true }),
  payload: promptEvent,
});

/** The webhook's extra headers, unsealed (null when it has none). */
const headersOf = (w: PromptWebhook) =>
  w.headersSealed ? (JSON.parse(decryptSecret(w.headersSealed) ?? "{}") as Record<string, string>) : null;

/** A webhook as answered: header values are stored and sent, but never shown again. */
export const wirePromptWebhook = z.object({
  id: z.string(),
  tenant_id: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.literal("<redacted>")).nullable(),
  include_prompts: z.array(z.string()).nullable(),
  exclude_prompts: z.array(z.string()).nullable(),
  triggers: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WirePromptWebhook = z.infer<typeof wirePromptWebhook>;

/** What `test` did with the sample event. */
export const webhookTestOutcome = z.object({ status: z.enum(["sent", "skipped"]), detail: z.string() });

function toWire(w: PromptWebhook): WirePromptWebhook {
  const headers = headersOf(w);
  return {
    id: w.id,
    tenant_id: w.workspaceId,
    url: w.url,
    headers: headers ? Object.fromEntries(Object.keys(headers).map((k) => [k, "<redacted>" as const])) : null,
    include_prompts: w.includePrompts.length ? w.includePrompts : null,
    exclude_prompts: w.excludePrompts.length ? w.excludePrompts : null,
    triggers: w.triggers,
    created_at: isoFromDb(w.createdAt)!,
    updated_at: isoFromDb(w.updatedAt)!,
  };
}

async function load(db: Sql, workspaceId: string, id: string): Promise<PromptWebhook> {
  const row = isUuid(id) ? await db.prisma.promptWebhook.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw notFound(`Prompt webhook ${id} not found.`);
  return row;
}

export async function createPromptWebhook(db: Sql, workspaceId: string, input: z.infer<typeof promptWebhookCreate>) {
  checkEgressUrl(input.url);
  const row = await db.prisma.promptWebhook.create({
    data: {
      id: input.id && isUuid(input.id) ? input.id : randomUUID(),
      workspaceId,
      url: input.url,
      headersSealed: input.headers ? encryptSecret(JSON.stringify(input.headers)) : null,
      includePrompts: input.include_prompts ?? [],
      excludePrompts: input.exclude_prompts ?? [],
      triggers: input.triggers?.length ? input.triggers : ["commit"],
    },
  });
  const wire = toWire(row);
  await recordAudit(db.prisma, { workspaceId, action: "webhook.create", target: { type: "prompt_webhook", id: row.id }, after: wire });
  return wire;
}

export const readPromptWebhook = async (db: Sql, workspaceId: string, id: string) => toWire(await load(db, workspaceId, id));

export async function listPromptWebhooks(db: Sql, workspaceId: string) {
  const rows = await db.prisma.promptWebhook.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toWire);
}

export async function updatePromptWebhook(db: Sql, workspaceId: string, id: string, change: z.infer<typeof promptWebhookUpdate>) {
  const current = await load(db, workspaceId, id);
  if (change.url) checkEgressUrl(change.url);
  const row = await db.prisma.promptWebhook.update({
    where: { id: current.id },
    data: {
      url: change.url ?? undefined,
      headersSealed: change.headers === undefined ? undefined : change.headers ? encryptSecret(JSON.stringify(change.headers)) : null,
      includePrompts: change.include_prompts === undefined ? undefined : (change.include_prompts ?? []),
      excludePrompts: change.exclude_prompts === undefined ? undefined : (change.exclude_prompts ?? []),
      triggers: change.triggers?.length ? change.triggers : undefined,
      updatedAt: new Date(),
    },
  });
  const wire = toWire(row);
  await recordAudit(db.prisma, {
    workspaceId,
    action: "webhook.update",
    target: { type: "prompt_webhook", id },
    before: toWire(current),
    after: wire,
  });
  return wire;
}

export async function deletePromptWebhook(db: Sql, workspaceId: string, id: string): Promise<void> {
  const current = await load(db, workspaceId, id);
  await db.prisma.$transaction(async (tx) => {
    await tx.promptWebhook.deleteMany({ where: { id, workspaceId } });
    await recordAudit(tx, { workspaceId, action: "webhook.delete", target: { type: "prompt_webhook", id }, before: toWire(current) });
  });
}

const listens = (w: { triggers: string[]; include: string[]; exclude: string[] }, event: PromptEvent) =>
  w.triggers.includes(event.event) &&
  (w.include.length === 0 || w.include.includes(event.prompt_name)) &&
  !w.exclude.includes(event.prompt_name);

async function deliver(url: string, headers: Record<string, string>, event: PromptEvent) {
  const result = await postJson(url, event, { headers });
  if (!result.ok) throw new AppError(502, `The webhook ${url} did not accept the event: ${result.detail}`);
  return result;
}

/**
 * POST /api/v1/prompt-webhooks/test: sends the sample event to the configuration given (not
 * saved), if its triggers and prompt filters take that event; a destination that refuses it is a 502.
 */
export async function testPromptWebhook(input: z.infer<typeof promptWebhookTest>): Promise<z.infer<typeof webhookTestOutcome>> {
  const { webhook, payload } = input;
  const filters = {
    triggers: webhook.triggers?.length ? webhook.triggers : ["commit"],
    include: webhook.include_prompts ?? [],
    exclude: webhook.exclude_prompts ?? [],
  };
  if (!listens(filters, payload))
    return { status: "skipped", detail: "The webhook's triggers or prompt filters leave this event out: nothing was sent." };
  const result = await deliver(webhook.url, webhook.headers ?? {}, payload);
  return { status: "sent", detail: `HTTP ${result.status} after ${result.attempts} attempt(s)` };
}

/** One delivery: the webhook (its id) and the event. */
const deliveries = defineQueue<{ webhook_id: string; event: PromptEvent }>("prompt-webhook", { batchSize: 1 });

/**
 * Queues the event for each of the workspace's webhooks that listens to it, through `db` (inside
 * the commit's transaction, so a commit's events exist exactly when the commit does).
 */
export async function promptEventHappened(db: Sql, workspaceId: string, event: PromptEvent): Promise<void> {
  const hooks = await db.prisma.promptWebhook.findMany({
    where: { workspaceId },
    select: { id: true, triggers: true, includePrompts: true, excludePrompts: true },
  });
  const listening = hooks.filter((h) => listens({ triggers: h.triggers, include: h.includePrompts, exclude: h.excludePrompts }, event));
  await deliveries.enqueue(
    db,
    listening.map((h) => ({ data: { webhook_id: h.id, event } })),
  );
}

// A failed delivery throws: pg-boss runs the job again later (3 times, backing off).
onJobs(deliveries, async (db: Sql, jobs: Job<{ webhook_id: string; event: PromptEvent }>[]) => {
  for (const job of jobs) {
    // One job per batch (batchSize 1), so a failed delivery never repeats another one.
    const webhook = await db.prisma.promptWebhook.findUnique({ where: { id: job.data.webhook_id } });
    if (!webhook) continue;
    await deliver(webhook.url, headersOf(webhook) ?? {}, job.data.event);
  }
});
