import { randomUUID } from "node:crypto";
import { z } from "zod";
import { extraHeaders } from "../core/headers";
import type { Sql } from "../db/client";
import type { ModelConnection } from "../db/generated/client";
import { badRequest, conflict, isUniqueViolation, notFound } from "../core/errors";
import { decryptSecret, encryptSecret } from "../core/secret";
import { isoFromDb } from "../core/time";
import { isUuid } from "../core/uuid";
import { EgressRefused, checkEgressUrl } from "../egress/http";
import { env } from "../env";
import { admitCall } from "./admission";
import { streamChat, UpstreamError } from "./chat";
import type { Connection } from "./types";
import { recordAudit } from "../audit/record";

const fields = {
  name: z.string().trim().min(1).max(100),
  provider: z.enum(["openai", "anthropic"]),
  base_url: z.string().url().max(2048),
  default_model: z.string().trim().min(1).max(200),
  api_key: z.string().min(1).max(10_000).nullish(),
  headers: extraHeaders.nullish(),
  requests_per_minute: z.number().int().min(1).max(100_000).nullish(),
};

export const connectionCreate = z.object({
  ...fields,
  provider: fields.provider.default("openai"),
  base_url: fields.base_url.optional(),
});
export const connectionUpdate = z.object({
  name: fields.name.optional(),
  base_url: fields.base_url.optional(),
  default_model: fields.default_model.optional(),
  api_key: fields.api_key,
  headers: fields.headers,
  requests_per_minute: fields.requests_per_minute,
});
export type ConnectionCreate = z.infer<typeof connectionCreate>;
export type ConnectionUpdate = z.infer<typeof connectionUpdate>;

const ANTHROPIC_URL = "https://api.anthropic.com";
/** The deployment's GENERATION_* settings, offered to every workspace as this connection. */
export const DEFAULT_CONNECTION = "default";

/** A connection as the API answers it: whether a key is set and which headers, never their values. */
export const wireConnection = z.object({
  id: z.string(),
  name: z.string(),
  provider: fields.provider,
  base_url: z.string().nullable(),
  default_model: z.string(),
  api_key_set: z.boolean(),
  header_names: z.array(z.string()),
  requests_per_minute: z.number().nullable(),
  source: z.enum(["workspace", "deployment"]),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type WireConnection = z.infer<typeof wireConnection>;

/** What the "Test" button shows: the call's model, how long it took, or what went wrong. */
export const wireConnectionTest = z.object({ ok: z.boolean(), model: z.string(), latency_ms: z.number(), detail: z.string() });

function toWire(row: ModelConnection): WireConnection {
  const headers = row.headersSealed ? (JSON.parse(decryptSecret(row.headersSealed) ?? "{}") as Record<string, string>) : {};
  return {
    id: row.id,
    name: row.name,
    provider: row.provider as Connection["provider"],
    base_url: row.baseUrl as string | null,
    default_model: row.defaultModel,
    api_key_set: !!row.apiKeySealed,
    header_names: Object.keys(headers),
    requests_per_minute: row.requestsPerMinute,
    source: "workspace",
    created_at: isoFromDb(row.createdAt),
    updated_at: isoFromDb(row.updatedAt),
  };
}

function deploymentConnection(): Connection | null {
  const base = env().GENERATION_BASE_URL;
  if (!base) return null;
  return {
    id: DEFAULT_CONNECTION,
    name: "Deployment default",
    provider: "openai",
    baseUrl: base,
    apiKey: env().GENERATION_API_KEY || null,
    headers: {},
    defaultModel: env().GENERATION_MODEL ?? "gpt-4o-mini",
    requestsPerMinute: null,
  };
}

function checkUrl(url: string): void {
  try {
    checkEgressUrl(url);
  } catch (error) {
    if (error instanceof EgressRefused) throw badRequest(`base_url cannot be called: ${error.message}`);
    throw error;
  }
}

async function load(db: Sql, workspaceId: string, id: string): Promise<ModelConnection> {
  const row = isUuid(id) ? await db.prisma.modelConnection.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw notFound(`Model connection ${id} not found.`);
  return row;
}

const taken = (name: string) => conflict(`A model connection named "${name}" already exists in this workspace.`);

/** The workspace's connections, then the deployment's default when it has one (its URL not shown). */
export async function listConnections(db: Sql, workspaceId: string): Promise<WireConnection[]> {
  const rows = await db.prisma.modelConnection.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const deployment = deploymentConnection();
  return [
    ...rows.map(toWire),
    ...(deployment
      ? [
          {
            id: deployment.id,
            name: deployment.name,
            provider: deployment.provider,
            base_url: null,
            default_model: deployment.defaultModel,
            api_key_set: !!deployment.apiKey,
            header_names: [],
            requests_per_minute: null,
            source: "deployment" as const,
            created_at: null,
            updated_at: null,
          },
        ]
      : []),
  ];
}

export async function createConnection(db: Sql, workspaceId: string, input: ConnectionCreate): Promise<WireConnection> {
  const baseUrl = input.base_url ?? (input.provider === "anthropic" ? ANTHROPIC_URL : undefined);
  if (!baseUrl) throw badRequest("base_url is required for an OpenAI-compatible connection.");
  checkUrl(baseUrl);
  try {
    const row = await db.prisma.modelConnection.create({
      data: {
        id: randomUUID(),
        workspaceId,
        name: input.name,
        provider: input.provider,
        baseUrl,
        defaultModel: input.default_model,
        apiKeySealed: input.api_key ? encryptSecret(input.api_key) : null,
        headersSealed: input.headers && Object.keys(input.headers).length ? encryptSecret(JSON.stringify(input.headers)) : null,
        requestsPerMinute: input.requests_per_minute ?? null,
      },
    });
    const wire = toWire(row);
    await recordAudit(db.prisma, {
      workspaceId,
      action: "model_connection.create",
      target: { type: "model_connection", id: row.id },
      after: wire,
    });
    return wire;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.name);
    throw error;
  }
}

/** Only what is sent changes. A new URL without a new key drops the old key: a key is only ever sent where it was set for. */
export async function updateConnection(db: Sql, workspaceId: string, id: string, change: ConnectionUpdate): Promise<WireConnection> {
  const row = await load(db, workspaceId, id);
  if (change.base_url) checkUrl(change.base_url);
  const moved = change.base_url !== undefined && change.base_url !== row.baseUrl;
  let apiKeySealed = row.apiKeySealed;
  if (change.api_key !== undefined) apiKeySealed = change.api_key ? encryptSecret(change.api_key) : null;
  else if (moved) apiKeySealed = null;
  let headersSealed = row.headersSealed;
  if (change.headers !== undefined)
    headersSealed = change.headers && Object.keys(change.headers).length ? encryptSecret(JSON.stringify(change.headers)) : null;
  else if (moved) headersSealed = null;
  try {
    const updated = await db.prisma.modelConnection.update({
      where: { id },
      data: {
        name: change.name,
        baseUrl: change.base_url,
        defaultModel: change.default_model,
        apiKeySealed,
        headersSealed,
        requestsPerMinute: change.requests_per_minute,
        updatedAt: new Date(),
      },
    });
    const wire = toWire(updated);
    await recordAudit(db.prisma, {
      workspaceId,
      action: "model_connection.update",
      target: { type: "model_connection", id },
      before: toWire(row),
      after: wire,
    });
    return wire;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(change.name ?? row.name);
    throw error;
  }
}

export async function deleteConnection(db: Sql, workspaceId: string, id: string): Promise<void> {
  const row = await load(db, workspaceId, id);
  await db.prisma.$transaction(async (tx) => {
    await tx.modelConnection.delete({ where: { id } });
    await recordAudit(tx, {
      workspaceId,
      action: "model_connection.delete",
      target: { type: "model_connection", id },
      before: toWire(row),
    });
  });
}

/**
 * The connection a call goes through, with its key opened: the one named, else the workspace's
 * first, else the deployment's default. A 400 says what to do when there is none, or when a stored
 * key can no longer be read (SECRET_KEY changed).
 */
export async function resolveConnection(db: Sql, workspaceId: string, id?: string | null): Promise<Connection> {
  if (id === DEFAULT_CONNECTION || (!id && !(await db.prisma.modelConnection.count({ where: { workspaceId } })))) {
    const deployment = deploymentConnection();
    if (!deployment)
      throw badRequest("No model connection: add one in Settings → Model connections (or set GENERATION_BASE_URL for the deployment).");
    return deployment;
  }
  const row = id
    ? await load(db, workspaceId, id)
    : (await db.prisma.modelConnection.findFirst({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }))!;
  const apiKey = row.apiKeySealed ? decryptSecret(row.apiKeySealed) : null;
  const headers = row.headersSealed ? decryptSecret(row.headersSealed) : "{}";
  if ((row.apiKeySealed && apiKey === null) || headers === null) {
    throw badRequest(`The key of model connection "${row.name}" can no longer be read (the server's SECRET_KEY changed): set it again.`);
  }
  return {
    id: row.id,
    name: row.name,
    provider: row.provider as Connection["provider"],
    baseUrl: row.baseUrl,
    apiKey,
    headers: JSON.parse(headers) as Record<string, string>,
    defaultModel: row.defaultModel,
    requestsPerMinute: row.requestsPerMinute,
  };
}

/** The "Test" button: one tiny call (a one-token answer); says how long it took or what went wrong. */
export async function testConnection(db: Sql, workspaceId: string, id: string): Promise<z.infer<typeof wireConnectionTest>> {
  const connection = await resolveConnection(db, workspaceId, id);
  await admitCall(connection);
  const started = Date.now();
  try {
    const result = await streamChat(connection, {
      model: connection.defaultModel,
      messages: [{ role: "user", content: "Say OK." }],
      max_tokens: 1,
    });
    return { ok: true, model: result.model, latency_ms: Date.now() - started, detail: `Answered "${result.text.slice(0, 50)}"` };
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof EgressRefused)
      return { ok: false, model: connection.defaultModel, latency_ms: Date.now() - started, detail: error.message };
    throw error;
  }
}
