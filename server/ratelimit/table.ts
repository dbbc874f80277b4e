/**
 * The contract's Limits table, row for row, as data. Both regions' numbers are kept even where they
 * are equal, so a reader can compare this file with the contract line by line.
 */

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

const any = "any" as const;
const per = (count: number, windowSeconds: number): Limit => ({ count, windowSeconds });
const both = (limit: Limit): Record<Region, Limit> => ({ us: limit, eu: limit });
const exact = (path: string): PathShape => ({ kind: "exact", path });
const under = (path: string): PathShape => ({ kind: "under", path });
const containing = (path: string): PathShape => ({ kind: "containing", path });
const suffix = (path: string): PathShape => ({ kind: "suffix", path });

export const LIMIT_TABLE: readonly LimitRow[] = [
  {
    id: "high-throughput-public",
    match: [
      { methods: ["OPTIONS"], path: { kind: "any" } },
      { methods: any, path: exact("/info") },
      { methods: any, path: suffix("/v1/metadata/submit") },
    ],
    identity: "ip",
    limits: both(per(2000, 10)),
    category: "High throughput",
    role: "specific",
  },
  {
    id: "auth-api-key",
    match: [{ methods: any, path: under("/auth") }],
    identity: "api_key",
    limits: both(per(2000, 10)),
    category: "High throughput",
    role: "specific",
  },
  {
    id: "auth-user",
    match: [{ methods: any, path: under("/auth") }],
    identity: "user_ip",
    limits: both(per(2000, 10)),
    category: "High throughput",
    role: "specific",
  },
  {
    id: "beacon",
    match: [{ methods: any, path: exact("/v1/beacon") }],
    identity: "ip",
    limits: both(per(2000, 10)),
    category: "High throughput",
    role: "specific",
  },
  {
    id: "repos-api-key",
    match: [{ methods: any, path: under("/repos") }],
    identity: "api_key",
    limits: both(per(100, 60)),
    category: "Repository",
    role: "specific",
  },
  {
    id: "repos-user",
    match: [{ methods: any, path: under("/repos") }],
    identity: "user_ip",
    limits: both(per(100, 60)),
    category: "Repository",
    role: "specific",
  },
  {
    id: "runs-batch",
    match: [{ methods: ["POST"], path: exact("/runs/batch") }],
    identity: "api_key",
    limits: both(per(2000, 10)),
    category: "High throughput",
    role: "specific",
  },
  {
    id: "otel-traces",
    match: [{ methods: ["POST"], path: exact("/otel/v1/traces") }],
    identity: "api_key",
    limits: both(per(2000, 10)),
    category: "Run ingest",
    role: "specific",
  },
  {
    id: "charts-api-key",
    match: [{ methods: ["POST"], path: containing("/charts") }],
    identity: "api_key",
    limits: both(per(750, 600)),
    category: "Charts",
    role: "specific",
  },
  {
    id: "charts-user",
    match: [{ methods: ["POST"], path: containing("/charts") }],
    identity: "user_ip",
    limits: both(per(750, 600)),
    category: "Charts",
    role: "specific",
  },
  {
    id: "runs-multipart",
    match: [{ methods: ["POST"], path: exact("/runs/multipart") }],
    identity: "api_key",
    limits: both(per(6000, 10)),
    category: "Multipart ingest",
    role: "specific",
  },
  {
    id: "runs-query-api-key",
    match: [{ methods: ["POST"], path: exact("/runs/query") }],
    identity: "api_key",
    limits: both(per(15, 10)),
    category: "Run query (API)",
    role: "specific",
  },
  {
    id: "runs-query-user",
    match: [{ methods: ["POST"], path: exact("/runs/query") }],
    identity: "user_ip",
    limits: both(per(300, 10)),
    category: "Run query (User)",
    role: "specific",
  },
  {
    id: "generate-api-key",
    match: [{ methods: any, path: under("/generate") }],
    identity: "api_key",
    limits: both(per(30, 3600)),
    category: "Generation",
    role: "specific",
  },
  {
    id: "generate-user",
    match: [{ methods: any, path: under("/generate") }],
    identity: "user_ip",
    limits: both(per(30, 3600)),
    category: "Generation",
    role: "specific",
  },
  {
    id: "commits-api-key",
    match: [{ methods: any, path: under("/commits") }],
    identity: "api_key",
    limits: { us: per(10000, 60), eu: per(2000, 60) },
    category: "Commits",
    role: "specific",
  },
  {
    id: "commits-user",
    match: [{ methods: any, path: under("/commits") }],
    identity: "user_ip",
    limits: { us: per(10000, 60), eu: per(2000, 60) },
    category: "Commits",
    role: "specific",
  },
  {
    id: "deletion-api-key",
    match: [
      { methods: ["DELETE"], path: under("/sessions") },
      { methods: any, path: suffix("/trigger") },
    ],
    identity: "api_key",
    limits: both(per(10, 60)),
    category: "Deletion",
    role: "specific",
  },
  {
    id: "deletion-user",
    match: [
      { methods: ["DELETE"], path: under("/sessions") },
      { methods: any, path: suffix("/trigger") },
    ],
    identity: "user_ip",
    limits: both(per(30, 60)),
    category: "Deletion",
    role: "specific",
  },
  {
    id: "runs-create",
    match: [{ methods: ["POST"], path: exact("/runs") }],
    identity: "api_key",
    limits: both(per(2000, 10)),
    category: "Run ingest",
    role: "specific",
  },
  {
    id: "runs-update",
    match: [{ methods: ["PATCH"], path: containing("/runs") }],
    identity: "api_key",
    limits: both(per(2000, 10)),
    category: "Run ingest",
    role: "specific",
  },
  {
    id: "feedback-create",
    match: [{ methods: ["POST"], path: exact("/feedback") }],
    identity: "api_key",
    limits: both(per(2000, 10)),
    category: "High throughput",
    role: "specific",
  },
  {
    id: "run-lookup",
    match: [{ methods: ["GET"], path: { kind: "uuidChild", path: "/runs" } }],
    identity: "api_key",
    limits: both(per(30, 60)),
    category: "Run lookup",
    role: "specific",
  },
  {
    id: "examples",
    match: [{ methods: ["GET"], path: containing("/examples") }],
    identity: "api_key",
    limits: both(per(5000, 60)),
    category: "Examples",
    role: "specific",
  },
  {
    id: "default-api-key",
    match: [{ methods: any, path: { kind: "any" } }],
    identity: "api_key",
    limits: both(per(1000, 10)),
    category: "Default (API key)",
    role: "default",
  },
  {
    id: "default-user",
    match: [{ methods: any, path: { kind: "any" } }],
    identity: "user_ip",
    limits: both(per(1000, 10)),
    category: "Default (User)",
    role: "default",
  },
  {
    id: "public-download",
    match: [{ methods: any, path: under("/public/download") }],
    identity: "ip",
    limits: both(per(5000, 60)),
    category: "Public download",
    role: "specific",
  },
  {
    id: "runs-stats",
    match: [{ methods: any, path: exact("/runs/stats") }],
    identity: "api_key",
    limits: { us: per(1, 10), eu: per(20, 10) },
    category: "Stats",
    role: "specific",
  },
  {
    id: "catch-all",
    match: [{ methods: any, path: { kind: "any" } }],
    identity: "ip",
    limits: both(per(100, 60)),
    category: "Public (catch-all)",
    role: "catch-all",
  },
];
