import { z } from "zod";

const MiB = 1024 * 1024;
const bool = z.enum(["1", "0", "true", "false", "on", "off"]).transform((v) => ["1", "true", "on"].includes(v));

const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./data"),
  REGION: z.enum(["us", "eu"]).default("us"),
  /** Each region's public base URL, when configured (see regionBaseUrl). */
  US_BASE_URL: z.string().url().optional(),
  EU_BASE_URL: z.string().url().optional(),
  /** This deployment's public base URL for links handed out (attachments, shares); default: the request's origin. */
  PUBLIC_URL: z.string().url().optional(),
  REDIS_URL: z.string().optional(),
  RATE_LIMITS: bool.default(true),
  /** Largest request body accepted on the wire (compressed size). */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(25 * MiB),
  /** Largest body after gzip/deflate/zstd decoding. */
  MAX_DECOMPRESSED_BYTES: z.coerce.number().int().positive().default(25 * MiB),
  /** Most runs (posts + patches) in one ingest request. */
  MAX_BATCH_RUNS: z.coerce.number().int().positive().default(1000),
  NEXTAUTH_SECRET: z.string().default("tracelight-dev-secret-change-me"),
  INTERNAL_SECRET: z.string().default("tracelight-internal-secret-change-me"),
  /** How often the usage outbox is drained (to the US deployment's billing endpoint, or locally in the US). */
  BILLING_FLUSH_MS: z.coerce.number().int().positive().default(5_000),
  /** HTTP proxy (http://[user:pass@]host:port) that traffic to customer endpoints leaves through. */
  EGRESS_PROXY_URL: z.string().url().optional(),
  /** Published in /info for allowlisting: comma-separated addresses. */
  EGRESS_IPS: z.string().default(""),
  INGRESS_IPS: z.string().default(""),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Configuration, validated once. Tests may call `resetEnv()` after changing process.env. */
export function env(): Env {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** A region's configured base URL, or the local default port a development setup uses for it. */
export function regionBaseUrl(region: "us" | "eu"): string {
  const e = env();
  return (region === "eu" ? e.EU_BASE_URL : e.US_BASE_URL) ?? (region === "eu" ? "http://localhost:1985" : "http://localhost:1984");
}

export function resetEnv(): void {
  cached = undefined;
}
