/** The shape of a row of the contract's Limits table (table.ts): what it matches, whom it counts, how many. */

/** Who a row counts: the API key, the user together with the caller's IP, or the IP alone. */
export type IdentityKind = "ip" | "api_key" | "user_ip";

export type Region = "us" | "eu";

export interface Limit {
  count: number;
  windowSeconds: number;
}

/**
 * Path shapes, compared with the request path after `/api/v1` (and `/v1`) prefixes and trailing
 * slashes are stripped, so `/runs/x`, `/api/v1/runs/x` and `/runs/x/` are one path.
 * - exact: that path only (`/runs/query`).
 * - under: that path or anything below it (`/sessions/{id}`, `/commits/{owner}/{repo}`).
 * - containing: the segments appear anywhere in the path (`/sessions/{id}/charts`).
 * - suffix: the path ends with these segments (the contract's `*` prefix: `*` /trigger).
 * - uuidChild: the parent followed by one UUID segment (`/runs/{run_id}`).
 * - any: every path.
 */
export type PathShape =
  | { kind: "exact"; path: string }
  | { kind: "under"; path: string }
  | { kind: "containing"; path: string }
  | { kind: "suffix"; path: string }
  | { kind: "uuidChild"; path: string }
  | { kind: "any" };

export interface RequestShape {
  /** Upper-case methods, or "any". */
  methods: "any" | readonly string[];
  path: PathShape;
}

/**
 * specific: an ordinary row; default: applies only when no specific row of the same identity kind
 * matched; catch-all: applies only to a request with no identity that no specific row matched.
 */
export type RowRole = "specific" | "default" | "catch-all";

export interface LimitRow {
  /** Stable id; part of every counter key, so renaming one resets its counters. */
  id: string;
  /** The row matches when any of these shapes does (the contract's "A, B, or C"). */
  match: readonly RequestShape[];
  identity: IdentityKind;
  limits: Record<Region, Limit>;
  category: string;
  role: RowRole;
}
