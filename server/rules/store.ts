import type { Sql } from "../db/client";
import type { RunRule } from "../db/generated/client";
import { notFound } from "../core/errors";
import { decryptSecret, encryptSecret } from "../core/secret";
import { isUuid } from "../core/uuid";
import type { AddFeedback, Webhook } from "./schema";

/** A webhook as stored: its signing secret sealed (core/secret.ts). */
export interface StoredWebhook {
  url: string;
  headers?: Record<string, string> | null;
  secret_sealed?: string | null;
}

/** A rule as stored; its JSON columns hold what `ruleCreate` validated. */
export type Rule = Omit<RunRule, "addFeedback" | "webhooks"> & { addFeedback: AddFeedback | null; webhooks: StoredWebhook[] };
export const asRule = (row: RunRule) => row as unknown as Rule;

export const sealWebhooks = (hooks: Webhook[]): StoredWebhook[] =>
  hooks.map((h) => ({ url: h.url, headers: h.headers ?? null, secret_sealed: h.secret ? encryptSecret(h.secret) : null }));

/** The secret a webhook's bodies are signed with, or null (none, or sealed under another SECRET_KEY). */
export const webhookSecret = (hook: StoredWebhook): string | null => (hook.secret_sealed ? decryptSecret(hook.secret_sealed) : null);
export const missingRule = (id: string) => notFound(`Rule ${id} not found.`);

export async function loadRule(db: Sql, workspaceId: string, id: string): Promise<Rule> {
  const row = isUuid(id) ? await db.prisma.runRule.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw missingRule(id);
  return asRule(row);
}

/** The enabled rules of the workspace on these projects, and on the datasets these projects are experiments on; oldest first. */
export async function enabledRules(db: Sql, workspaceId: string, projectIds: string[]): Promise<Rule[]> {
  const datasets = await db.prisma.project.findMany({
    where: { workspaceId, id: { in: projectIds }, referenceDatasetId: { not: null } },
    select: { referenceDatasetId: true },
  });
  const rows = await db.prisma.runRule.findMany({
    where: {
      workspaceId,
      isEnabled: true,
      OR: [{ projectId: { in: projectIds } }, { datasetId: { in: datasets.map((d) => d.referenceDatasetId!) } }],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(asRule);
}
