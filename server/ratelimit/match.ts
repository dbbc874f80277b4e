import { LIMIT_TABLE } from "./table";
import type { IdentityKind, LimitRow, PathShape, RequestShape } from "./rows";
import { UUID } from "../core/uuid";

export interface RateLimitRequest {
  method: string;
  path: string;
  apiKey?: string;
  userId?: string;
  ip: string;
}

/** A row that applies to a request, with the raw identity value it counts (hashed before storage). */
export interface AppliedRow {
  row: LimitRow;
  identityValue: string;
}

/**
 * The path as routing sees it: no query, no trailing or doubled slashes, and no `/api/v1` or `/v1`
 * prefix, because next.config.mjs rewrites `/X`, `/v1/X` and `/api/v1/X` onto the same handler.
 */
export function normalizePath(raw: string): string {
  let path = raw
    .split(/[?#]/, 1)[0]!
    .replace(/\/{2,}/g, "/")
    .replace(/\/+$/, "");
  if (!path.startsWith("/")) path = `/${path}`;
  for (const prefix of ["/api/v1", "/v1"]) {
    if (path === prefix || path.startsWith(`${prefix}/`)) path = path.slice(prefix.length) || "/";
  }
  return path;
}

function containsSegments(path: string, segments: string): boolean {
  return path.includes(`${segments}/`) || path.endsWith(segments);
}

/** Shape paths normalized once, as request paths are on every call. */
const normalizedShapePaths = new Map<string, string>();
function shapePath(raw: string): string {
  let normalized = normalizedShapePaths.get(raw);
  if (normalized === undefined) normalizedShapePaths.set(raw, (normalized = normalizePath(raw)));
  return normalized;
}

function pathMatches(shape: PathShape, path: string, rawPath: string): boolean {
  switch (shape.kind) {
    case "any":
      return true;
    case "exact":
      return path === shapePath(shape.path);
    case "under": {
      const base = shapePath(shape.path);
      return path === base || path.startsWith(`${base}/`);
    }
    case "containing":
      return containsSegments(path, shapePath(shape.path));
    case "suffix":
      // `*/v1/metadata/submit`: the suffix may carry a prefix that normalization strips when nothing precedes it.
      return rawPath.endsWith(shape.path) || path === shapePath(shape.path);
    case "uuidChild": {
      const base = shapePath(shape.path);
      return path.startsWith(`${base}/`) && UUID.test(path.slice(base.length + 1));
    }
  }
}

function shapeMatches(shape: RequestShape, method: string, path: string, rawPath: string): boolean {
  if (shape.methods !== "any" && !shape.methods.includes(method)) return false;
  return pathMatches(shape.path, path, rawPath);
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** The raw value a row of this identity kind counts for the request, or undefined when it carries none. */
function identityValue(kind: IdentityKind, req: RateLimitRequest): string | undefined {
  const apiKey = present(req.apiKey);
  const userId = present(req.userId);
  if (kind === "api_key") return apiKey;
  if (kind === "user_ip") return userId === undefined ? undefined : `${userId}\n${req.ip}`;
  return req.ip;
}

/** Every row of the table whose shape matches the request, regardless of identity and role. */
export function rowsMatchingShape(req: RateLimitRequest, table: readonly LimitRow[] = LIMIT_TABLE): LimitRow[] {
  const method = req.method.toUpperCase();
  const path = normalizePath(req.path);
  const rawPath = req.path.split(/[?#]/, 1)[0]!.replace(/\/+$/, "");
  return table.filter((row) => row.match.some((shape) => shapeMatches(shape, method, path, rawPath)));
}

/**
 * The rows that count this request (see README.md): every specific row whose identity the request
 * carries; a default row only when no specific row of its identity kind applied; the catch-all only
 * for a request with neither x-api-key nor x-user-id that no specific IP row covered.
 */
export function applicableRows(req: RateLimitRequest, table: readonly LimitRow[] = LIMIT_TABLE): AppliedRow[] {
  const carried = rowsMatchingShape(req, table).flatMap((row) => {
    const value = identityValue(row.identity, req);
    return value === undefined ? [] : [{ row, identityValue: value }];
  });
  const specificKinds = new Set(carried.filter((a) => a.row.role === "specific").map((a) => a.row.identity));
  const anonymous = present(req.apiKey) === undefined && present(req.userId) === undefined;
  return carried.filter(({ row }) => {
    if (row.role === "specific") return true;
    if (row.role === "default") return !specificKinds.has(row.identity);
    return anonymous && !specificKinds.has(row.identity);
  });
}
