import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { ModelPrice as PriceRow, Prisma } from "../db/generated/client";
import { notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import table from "./prices.json";
import type { PriceEntry } from "./cost";
import { TOKEN_TYPES, type ModelPriceCreate, type ModelPriceListQuery, type ModelPriceUpdate } from "./price-schema";
import { isUuid } from "../core/uuid";
import { recordAudit } from "../audit/record";

/** A model price as answered (`/model-prices`). */
export const wireModelPrice = z.object({
  id: z.string(),
  source: z.enum(["workspace", "shipped"]),
  name: z.string(),
  match_pattern: z.string(),
  provider: z.string().nullable(),
  start_date: z.string().nullable(),
  /** USD per 1M tokens by token type. */
  prices: z.record(z.string(), z.number().nullable()),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type ModelPriceWire = z.infer<typeof wireModelPrice>;

const missing = (id: string) => notFound(`Model price ${id} not found in this workspace.`);

function pricesOf(source: Record<string, unknown>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const t of TOKEN_TYPES) if (typeof source[t] === "number") out[t] = source[t] as number;
  return out;
}

const pricesOfRow = (row: PriceRow) => pricesOf(row.prices as Record<string, unknown>);

function toWire(row: PriceRow): ModelPriceWire {
  return {
    id: row.id,
    source: "workspace",
    name: row.name,
    match_pattern: row.matchPattern,
    provider: row.provider,
    start_date: isoFromDb(row.startDate),
    prices: pricesOfRow(row),
    created_at: isoFromDb(row.createdAt),
    updated_at: isoFromDb(row.updatedAt),
  };
}

const SHIPPED: ModelPriceWire[] = (table as { models: PriceEntry[] }).models.map((e) => ({
  id: `shipped:${e.model}`,
  source: "shipped",
  name: e.model,
  match_pattern: e.match,
  provider: e.provider ?? null,
  start_date: null,
  prices: pricesOf(e as unknown as Record<string, unknown>),
  created_at: null,
  updated_at: null,
}));

/** The order custom prices are tried in: the latest start date first (undated last), then the newest. */
const ORDER: Prisma.ModelPriceOrderByWithRelationInput[] = [
  { startDate: { sort: "desc", nulls: "last" } },
  { createdAt: "desc" },
  { id: "asc" },
];

const workspacePrices = (db: Sql, workspaceId: string) => db.prisma.modelPrice.findMany({ where: { workspaceId }, orderBy: ORDER });

/** GET /model-prices: the workspace's prices in the order they are tried, then the shipped table. */
export async function listModelPrices(db: Sql, workspaceId: string, q: ModelPriceListQuery): Promise<ModelPriceWire[]> {
  const own = q.source === "shipped" ? [] : (await workspacePrices(db, workspaceId)).map(toWire);
  return q.source === "workspace" ? own : [...own, ...SHIPPED];
}

const startDate = (value: string | null | undefined) => (value ? new Date(value) : null);

export async function createModelPrice(db: Sql, workspaceId: string, input: ModelPriceCreate): Promise<ModelPriceWire> {
  const row = await db.prisma.modelPrice.create({
    data: {
      id: randomUUID(),
      workspaceId,
      name: input.name,
      matchPattern: input.match_pattern,
      provider: input.provider ?? null,
      startDate: startDate(input.start_date),
      prices: pricesOf(input.prices),
    },
  });
  forgetPrices(workspaceId);
  const wire = toWire(row);
  await recordAudit(db.prisma, { workspaceId, action: "model_price.create", target: { type: "model_price", id: row.id }, after: wire });
  return wire;
}

export async function updateModelPrice(db: Sql, workspaceId: string, id: string, input: ModelPriceUpdate): Promise<ModelPriceWire> {
  if (!isUuid(id)) throw missing(id);
  const before = await db.prisma.modelPrice.findFirst({ where: { workspaceId, id } });
  const { count } = await db.prisma.modelPrice.updateMany({
    where: { workspaceId, id },
    data: {
      updatedAt: new Date(),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.match_pattern !== undefined ? { matchPattern: input.match_pattern } : {}),
      ...(input.provider !== undefined ? { provider: input.provider } : {}),
      ...(input.start_date !== undefined ? { startDate: startDate(input.start_date) } : {}),
      ...(input.prices !== undefined ? { prices: pricesOf(input.prices) } : {}),
    },
  });
  if (count === 0) throw missing(id);
  forgetPrices(workspaceId);
  const wire = toWire((await db.prisma.modelPrice.findUnique({ where: { id } }))!);
  await recordAudit(db.prisma, {
    workspaceId,
    action: "model_price.update",
    target: { type: "model_price", id },
    before: before && toWire(before),
    after: wire,
  });
  return wire;
}

export async function deleteModelPrice(db: Sql, workspaceId: string, id: string): Promise<void> {
  const before = isUuid(id) ? await db.prisma.modelPrice.findFirst({ where: { workspaceId, id } }) : null;
  const { count } = before ? await db.prisma.modelPrice.deleteMany({ where: { workspaceId, id } }) : { count: 0 };
  if (count === 0) throw missing(id);
  forgetPrices(workspaceId);
  await recordAudit(db.prisma, {
    workspaceId,
    action: "model_price.delete",
    target: { type: "model_price", id },
    before: before && toWire(before),
  });
}

// ---- what ingest uses -------------------------------------------------------------------------

/** How long ingest reuses a workspace's prices before reading them again (other instances' edits show up within this). */
export const PRICE_CACHE_MS = 5_000;
const cache = new Map<string, { at: number; entries: PriceEntry[] }>();

function forgetPrices(workspaceId: string): void {
  cache.delete(workspaceId);
}

function toEntry(row: PriceRow): PriceEntry {
  const p = pricesOfRow(row);
  return {
    model: row.name,
    match: row.matchPattern,
    provider: row.provider,
    input: p.input ?? null,
    output: p.output ?? null,
    cache_read: p.cache_read ?? null,
    cache_write: p.cache_write ?? null,
    reasoning: p.reasoning ?? null,
    input_audio: p.input_audio ?? null,
    output_audio: p.output_audio ?? null,
    start_date: isoFromDb(row.startDate),
  };
}

/**
 * The workspace's own prices as price-table entries, in the order findPrice tries them; read once
 * per ingest request and cached per workspace for PRICE_CACHE_MS (edits through this process are
 * seen at once).
 */
export async function workspacePriceEntries(db: Sql, workspaceId: string, now = Date.now()): Promise<PriceEntry[]> {
  const hit = cache.get(workspaceId);
  if (hit && now - hit.at < PRICE_CACHE_MS) return hit.entries;
  const entries = (await workspacePrices(db, workspaceId)).map(toEntry);
  if (cache.size > 10_000) cache.clear();
  cache.set(workspaceId, { at: now, entries });
  return entries;
}
