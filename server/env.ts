import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

const MiB = 1024 * 1024;
/** Values earlier versions shipped as defaults: anyone could sign sessions with them. */
const PUBLISHED_DEFAULTS = ["tracelight-dev-secret-change-me", "tracelight-internal-secret-change-me"];
const secret = z
  .string()
  .min(16, "must be at least 16 characters (use: openssl rand -base64 32)")
  .refine((v) => !PUBLISHED_DEFAULTS.includes(v), "is a published default value; set a random secret (openssl rand -base64 32)");
const isAddressOrRange = (entry: string) => {
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  return family !== 0 && !rest.length && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
};
const bool = z.enum(["1", "0", "true", "false", "on", "off"]).transform((v) => ["1", "true", "on"].includes(v));
/** An empty variable (`OIDC_ISSUER=` in a compose file) counts as unset. */
const unsetIfEmpty = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (v === "" ? undefined : v), inner);
/** Roles single sign-on may grant; `annotator` is kept only where the deployment's roles include it. */
const SSO_ROLES = ["admin", "member", "annotator", "viewer"] as const;
/** `group=role` pairs, comma-separated: `tl-admins=admin,tl-devs=member`. */
const roleMap = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => {
        const eq = pair.lastIndexOf("=");
        return eq < 0 ? { group: "", role: pair } : { group: pair.slice(0, eq).trim(), role: pair.slice(eq + 1).trim() };
      }),
  )
  .pipe(z.array(z.object({ group: z.string().min(1, "needs group=role pairs (e.g. tl-admins=admin)"), role: z.enum(SSO_ROLES) })));

const schema = z
  .object({
    DATABASE_URL: z.string().url().optional(),
    /** Streaming replicas of DATABASE_URL (comma-separated URLs) that list, query, statistics and chart reads may use. */
    DATABASE_REPLICA_URLS: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().url())),
    /** A replica further behind the primary than this is skipped until it catches up. */
    DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().nonnegative().default(1_000),
    DATA_DIR: z.string().default("./data"),
    /** The embedded database's buffer pool (PostgreSQL units); resident in the server for its whole life. */
    EMBEDDED_SHARED_BUFFERS: unsetIfEmpty(
      z
        .string()
        .regex(/^\d+(kB|MB|GB)$/, "must be a size such as 32MB")
        .optional(),
    ),
    /**
     * 1 runs the embedded database in a worker thread (its own core); off by default (its peak memory,
     * docs/storage.md). The backfill failure seen with it on was a race in the evaluators' log lines, now fixed.
     */
    EMBEDDED_WORKER: bool.default(false),
    REGION: z.enum(["us", "eu"]).default("us"),
    /** Each region's public base URL, when configured (see regionBaseUrl). */
    US_BASE_URL: z.string().url().optional(),
    EU_BASE_URL: z.string().url().optional(),
    /** This deployment's public base URL for links handed out (attachments, shares); default: the request's origin. */
    PUBLIC_URL: z.string().url().optional(),
    REDIS_URL: z.string().optional(),
    RATE_LIMITS: bool.default(true),
    /** Largest request body accepted on the wire (compressed size). */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(25 * MiB),
    /** Largest body after gzip/deflate/zstd decoding. */
    MAX_DECOMPRESSED_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(25 * MiB),
    /** Longest a read may run on PostgreSQL before it is cancelled (answered 400: narrow the query). */
    STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** Longest a read-only SQL query (`POST /v2/sql/query`) may run on PostgreSQL. */
    SQL_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /**
     * Largest planner cost estimate a read-only SQL query may have: 10^8 on PostgreSQL (where it
     * refuses a hopeless query at once instead of after SQL_TIMEOUT_MS), 2·10^6 on the embedded
     * database, which cannot cancel a running statement, so this is its only time bound.
     */
    SQL_MAX_COST: z.coerce.number().positive().optional(),
    /** Most rows a read-only SQL query answers (the rest is reported as truncated). */
    SQL_ROW_LIMIT: z.coerce.number().int().positive().default(1000),
    /** Most bytes of rows (as JSON) a read-only SQL query answers. */
    SQL_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(10 * MiB),
    /** GET /metrics answers a caller sending `Authorization: Bearer <METRICS_TOKEN>`, or one from METRICS_ALLOW. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** Addresses and CIDR ranges (comma-separated) that may read GET /metrics without the token; default: loopback only. */
    METRICS_ALLOW: z
      .string()
      .default("127.0.0.0/8,::1")
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().refine(isAddressOrRange, "must list addresses or CIDR ranges (e.g. 10.0.0.0/8,::1)"))),
    /** A worker process (`npm run worker`) serves /healthz, /readyz and /metrics on this port when set. */
    WORKER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** On SIGTERM: longest wait for in-flight requests and running jobs before the process exits anyway. */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(25_000),
    /**
     * Object storage for attachments and example files, S3-compatible (AWS S3, MinIO, R2, …): set
     * S3_BUCKET to use it, with S3_ENDPOINT for anything but AWS. Unset: files under DATA_DIR/blobs.
     */
    S3_BUCKET: z.string().min(3).optional(),
    S3_ENDPOINT: z.string().url().optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** Address buckets as endpoint/bucket (MinIO and most self-hosted servers) rather than bucket.endpoint. */
    S3_FORCE_PATH_STYLE: z
      .enum(["true", "false"])
      .default("true")
      .transform((v) => v === "true"),
    /** A blob no row holds any more is deleted from the store once it has not been put for this long. */
    BLOB_SWEEP_GRACE_SECONDS: z.coerce.number().int().min(0).default(3600),
    /** Most runs (posts + patches) in one ingest request. */
    MAX_BATCH_RUNS: z.coerce.number().int().positive().default(1000),
    /** Signs UI sessions. Required with DATABASE_URL; generated into DATA_DIR for the embedded database. */
    NEXTAUTH_SECRET: secret.optional(),
    /**
     * Single sign-on through an OpenID Connect provider (Okta, Entra ID, Google, Keycloak, …): its issuer
     * URL, whose `/.well-known/openid-configuration` is read. Needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.
     */
    OIDC_ISSUER: unsetIfEmpty(z.string().url().optional()),
    /** The client (application) id registered at the provider for this deployment. */
    OIDC_CLIENT_ID: unsetIfEmpty(z.string().min(1).optional()),
    /** The client secret registered at the provider (never logged or stored). */
    OIDC_CLIENT_SECRET: unsetIfEmpty(z.string().min(1).optional()),
    /** The provider's name on the sign-in page's button: "Sign in with <OIDC_NAME>". */
    OIDC_NAME: unsetIfEmpty(z.string().trim().min(1).max(60).default("SSO")),
    /** Scopes requested at sign-in (space-separated); the ID token must carry `email` and its verified flag. */
    OIDC_SCOPES: unsetIfEmpty(z.string().trim().min(1).default("openid email profile")),
    /** The claim that says the provider verified the e-mail (`xms_edov` on Entra ID); only a verified e-mail matches an account. */
    OIDC_EMAIL_VERIFIED_CLAIM: unsetIfEmpty(z.string().trim().min(1).default("email_verified")),
    /** The workspace (id, handle or name) a user joins at their first single sign-on; default: the oldest workspace. */
    OIDC_DEFAULT_WORKSPACE: unsetIfEmpty(z.string().trim().min(1).optional()),
    /** The role a single sign-on user gets there when no group in OIDC_ROLE_MAP matches. */
    OIDC_DEFAULT_ROLE: unsetIfEmpty(z.enum(SSO_ROLES).default("viewer")),
    /** The ID token claim listing the user's groups (e.g. `groups`); with OIDC_ROLE_MAP it sets the role at each sign-in. */
    OIDC_ROLE_CLAIM: unsetIfEmpty(z.string().trim().min(1).optional()),
    /** Groups to roles, `group=role` comma-separated (`tl-admins=admin,tl-devs=member`); the strongest match wins. */
    OIDC_ROLE_MAP: roleMap,
    /** Turns password sign-in and sign-up off: everyone signs in through the OIDC provider (which must be configured). */
    SSO_ONLY: bool.default(false),
    /** Signs attachment links and seals tokens; the same on both regions. Required like NEXTAUTH_SECRET. */
    INTERNAL_SECRET: secret.optional(),
    /** Encrypts stored secrets (server/core/secret.ts); NEXTAUTH_SECRET when unset. */
    SECRET_KEY: secret.optional(),
    /** How often the usage outbox is drained (to the US deployment's billing endpoint, or locally in the US). */
    BILLING_FLUSH_MS: z.coerce.number().int().positive().default(5_000),
    /** Job workers in this instance (evaluations, backfills): 0 makes it a web-only instance. */
    JOB_WORKERS: z.coerce.number().int().min(0).max(32).default(2),
    /** A job whose instance died is run again after this long (a running job's lease). */
    JOB_LEASE_SECONDS: z.coerce.number().int().min(1).default(300),
    /** How often expired leases are found and their jobs made runnable again. */
    JOB_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).default(60),
    /** How often a worker folds the analytics rollups' delta rows (one per ingest statement) into one row per key. */
    ROLLUP_COMPACT_SECONDS: z.coerce.number().min(0.1).default(5),
    /** First wait before an evaluation is retried after a 429 or 5xx; doubled per attempt (Retry-After wins when longer). */
    EVALUATOR_RETRY_BASE_MS: z.coerce.number().int().min(0).default(2_000),
    /** How long one code evaluator may run in its sandbox before it is stopped as timed out. */
    CODE_EVALUATOR_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(5_000),
    /** The memory one code evaluator's sandbox (its QuickJS runtime) may allocate. */
    CODE_EVALUATOR_MEMORY_MB: z.coerce.number().int().min(8).max(1024).default(64),
    /** First wait before a rule's failed action (a webhook's 5xx, 429 or network error) is tried again; doubled per attempt. */
    RULE_RETRY_BASE_MS: z.coerce.number().int().min(0).default(5_000),
    /** How often alert rules are evaluated (one evaluation per interval across all instances); tests shorten it. */
    ALERTS_INTERVAL_MS: z.coerce.number().int().min(200).default(60_000),
    /** First wait before a failed alert notification is tried again; doubled per attempt. */
    ALERT_RETRY_BASE_MS: z.coerce.number().int().min(0).default(5_000),
    /** HTTP proxy (http://[user:pass@]host:port) that traffic to customer endpoints leaves through. */
    EGRESS_PROXY_URL: z.string().url().optional(),
    /** Published in /info for allowlisting: comma-separated addresses. */
    EGRESS_IPS: z.string().default(""),
    INGRESS_IPS: z.string().default(""),
    /** Outbound calls to private, loopback and link-local addresses (tests, a model server on the same host). */
    ALLOW_PRIVATE_EGRESS: bool.default(false),
    /** The deployment's default model connection for /generate (an OpenAI-compatible endpoint). */
    GENERATION_BASE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
    GENERATION_API_KEY: z.string().optional(),
    GENERATION_MODEL: z.string().optional(),
    /** The port the server listens on (scripts/serve.mjs), for the address printed at start-up. */
    PORT: z.string().default("1984"),
    /** The build's commit, shown by /info. */
    GIT_SHA: z.string().default("unknown"),
  })
  .superRefine((e, ctx) => {
    const oidc = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_ISSUER"],
        message: "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together",
      });
    }
    if (e.SSO_ONLY && !e.OIDC_ISSUER) {
      ctx.addIssue({
        code: "custom",
        path: ["SSO_ONLY"],
        message: "needs single sign-on configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)",
      });
    }
  });

const SECRETS = ["NEXTAUTH_SECRET", "INTERNAL_SECRET"] as const;
export type Env = z.infer<typeof schema> & Record<(typeof SECRETS)[number], string>;

/**
 * Secrets are never defaulted. With DATABASE_URL (a production deployment) they must be set; the
 * embedded database keeps generated ones next to its data, in DATA_DIR/secrets.json (mode 0600),
 * created on the first start and read on every later one.
 */
function withSecrets(parsed: z.infer<typeof schema>): Env {
  const missing = SECRETS.filter((name) => !parsed[name]);
  if (missing.length === 0) return parsed as Env;
  if (parsed.DATABASE_URL) {
    throw new Error(`${missing.join(" and ")} must be set when DATABASE_URL is (each a random value: openssl rand -base64 32).`);
  }
  const file = path.join(parsed.DATA_DIR, "secrets.json");
  let stored: Record<string, string>;
  try {
    stored = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    stored = Object.fromEntries(SECRETS.map((name) => [name, randomBytes(32).toString("base64url")]));
    mkdirSync(parsed.DATA_DIR, { recursive: true });
    try {
      writeFileSync(file, JSON.stringify(stored, null, 2), { flag: "wx", mode: 0o600 });
    } catch {
      stored = JSON.parse(readFileSync(file, "utf8")); // another process wrote it first
    }
  }
  return { ...parsed, ...Object.fromEntries(missing.map((name) => [name, stored[name]])) } as Env;
}

let cached: Env | undefined;

/** Configuration, validated once. Tests may call `resetEnv()` after changing process.env. */
export function env(): Env {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
    cached = withSecrets(parsed.data);
  }
  return cached;
}

/** A region's configured base URL, or the local default port a development setup uses for it. */
export function regionBaseUrl(region: "us" | "eu"): string {
  const e = env();
  return (region === "eu" ? e.EU_BASE_URL : e.US_BASE_URL) ?? (region === "eu" ? "http://localhost:1985" : "http://localhost:1984");
}

/** Reads the environment again on the next env() (tests that change it). */
export function resetEnv(): void {
  cached = undefined;
}
