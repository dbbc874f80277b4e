import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import table from "./prices.json";
import type { PriceEntry } from "./cost";
import { TOKEN_TYPES, type ModelPriceCreate, type ModelPriceListQuery, type ModelPriceUpdate } from "./price-schema";
import { UUID } from "../core/uuid";

interface PriceRow {
  id: string;
  workspace_id: string;
  name: string;
  match_pattern: string;
  provider: string | null;
  start_date: string | null;
  prices: Record<string, number | null>;
  created_at: string;
  updated_at: string;
}

export interface ModelPriceWire {
  id: string;
  source: "workspace" | "shipped";
  name: string;
  match_pattern: string;
  provider: string | null;
  start_date: string | null;
  /** USD per 1M tokens by token type. */
  prices: Record<string, number | null>;
  created_at: string | null;
  updated_at: string | null;
}

const missing = (id: string) => notFound(`Model price ${id} not found in this workspace.`);

function pricesOf(source: Record<string, unknown>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const t of TOKEN_TYPES) if (typeof source[t] === "number") out[t] = source[t] as number;
  return out;
}

function toWire(row: PriceRow): ModelPriceWire {
  return {
    id: row.id,
    source: "workspace",
    name: row.name,
    match_pattern: row.match_pattern,
    provider: row.provider,
    start_date: isoFromDb(row.start_date),
    prices: pricesOf(row.prices),
    created_at: isoFromDb(row.created_at),
    updated_at: isoFromDb(row.updated_at),
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
const ORDER = sql`ORDER BY start_date DESC NULLS LAST, created_at DESC, id`;

/** GET /model-prices: the workspace's prices in the order they are tried, then the shipped table. */
export async function listModelPrices(db: Sql, workspaceId: string, q: ModelPriceListQuery): Promise<ModelPriceWire[]> {
  const own = q.source === "shipped" ? [] : (await db.query<PriceRow>(sql`SELECT * FROM model_prices WHERE workspace_id = ${workspaceId} ${ORDER}`)).map(toWire);
  return q.source === "workspace" ? own : [...own, ...SHIPPED];
}

export async function createModelPrice(db: Sql, workspaceId: string, input: ModelPriceCreate): Promise<ModelPriceWire> {
  const [row] = await db.query<PriceRow>(sql`
    INSERT INTO model_prices (id, workspace_id, name, match_pattern, provider, start_date, prices)
    VALUES (${randomUUID()}, ${workspaceId}, ${input.name}, ${input.match_pattern}, ${input.provider ?? null},
            ${input.start_date ?? null}::timestamptz, ${JSON.stringify(pricesOf(input.prices))}::jsonb)
    RETURNING *`);
  forgetPrices(workspaceId);
  return toWire(row);
}

export async function updateModelPrice(db: Sql, workspaceId: string, id: string, input: ModelPriceUpdate): Promise<ModelPriceWire> {
  if (!UUID.test(id)) throw missing(id);
  const set: SqlFragment[] = [sql`updated_at = now()`];
  if (input.name !== undefined) set.push(sql`name = ${input.name}`);
  if (input.match_pattern !== undefined) set.push(sql`match_pattern = ${input.match_pattern}`);
  if (input.provider !== undefined) set.push(sql`provider = ${input.provider}`);
  if (input.start_date !== undefined) set.push(sql`start_date = ${input.start_date}::timestamptz`);
  if (input.prices !== undefined) set.push(sql`prices = ${JSON.stringify(pricesOf(input.prices))}::jsonb`);
  const rows = await db.query<PriceRow>(sql`
    UPDATE model_prices SET ${join(set)} WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`);
  if (rows.length === 0) throw missing(id);
  forgetPrices(workspaceId);
  return toWire(rows[0]);
}

export async function deleteModelPrice(db: Sql, workspaceId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw missing(id);
  const rows = await db.query(sql`DELETE FROM model_prices WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`);
  if (rows.length === 0) throw missing(id);
  forgetPrices(workspaceId);
}

// ---- what ingest uses -------------------------------------------------------------------------

/** How long ingest reuses a workspace's prices before reading them again (other instances' edits show up within this). */
export const PRICE_CACHE_MS = 5_000;
const cache = new Map<string, { at: number; entries: PriceEntry[] }>();

function forgetPrices(workspaceId: string): void {
  cache.delete(workspaceId);
}

function toEntry(row: PriceRow): PriceEntry {
  const p = row.prices;
  return {
    model: row.name,
    match: row.match_pattern,
    provider: row.provider,
    input: p.input ?? null,
    output: p.output ?? null,
    cache_read: p.cache_read ?? null,
    cache_write: p.cache_write ?? null,
    reasoning: p.reasoning ?? null,
    input_audio: p.input_audio ?? null,
    output_audio: p.output_audio ?? null,
    start_date: isoFromDb(row.start_date),
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
  const rows = await db.query<PriceRow>(sql`SELECT * FROM model_prices WHERE workspace_id = ${workspaceId} ${ORDER}`);
  const entries = rows.map(toEntry);
  if (cache.size > 10_000) cache.clear();
  cache.set(workspaceId, { at: now, entries });
  return entries;
}
