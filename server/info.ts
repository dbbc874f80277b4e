import { z } from "zod";
import { env, regionBaseUrl } from "./env";
import { publicBaseUrl } from "./http/public-url";

const list = (csv: string) =>
  csv
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The LangSmith API level implemented: the classic REST API and the 0.12 client's v2 resources it
 * checks for 0.16 (runs, traces, threads, datasets, annotation queues' items at 0.16.14, online
 * evaluators). `sessions` (0.18) is partly served — listV2 and resolve — so the client still warns
 * for it, which is true.
 */
export const SERVICE_VERSION = "0.16.14";

const ips = z.array(z.string());

/** GET /info as the SDKs read it (`LangSmithInfo`), with this server's limits. */
export const wireServiceInfo = z.object({
  version: z.string(),
  license_expiration_time: z.null(),
  git_sha: z.string().nullish(),
  region: z.string(),
  region_urls: z.object({ us: z.string(), eu: z.string() }),
  billing_region: z.string(),
  network: z.object({ egress_ips: ips, ingress_ips: ips, egress_proxy: z.boolean() }),
  batch_ingest_config: z.object({
    use_multipart_endpoint: z.boolean(),
    scale_up_qsize_trigger: z.number(),
    scale_up_nthreads_limit: z.number(),
    scale_down_nempty_trigger: z.number(),
    size_limit: z.number(),
    size_limit_bytes: z.number(),
  }),
  instance_flags: z.record(z.string(), z.boolean()),
  limits: z.object({ max_body_bytes: z.number(), max_decompressed_bytes: z.number(), max_runs_per_request: z.number() }),
});

/** GET /info: what the SDKs read to decide how to send runs. Limits match what the server enforces. */
export function serviceInfo(): z.infer<typeof wireServiceInfo> {
  const e = env();
  return {
    version: SERVICE_VERSION,
    license_expiration_time: null,
    git_sha: env().GIT_SHA,
    region: e.REGION,
    // This deployment as its clients reach it (or PUBLIC_URL); the other region as configured.
    region_urls: e.REGION === "us" ? { us: publicBaseUrl(), eu: regionBaseUrl("eu") } : { us: regionBaseUrl("us"), eu: publicBaseUrl() },
    billing_region: "us",
    network: { egress_ips: list(e.EGRESS_IPS), ingress_ips: list(e.INGRESS_IPS), egress_proxy: !!e.EGRESS_PROXY_URL },
    batch_ingest_config: {
      use_multipart_endpoint: true,
      scale_up_qsize_trigger: 200,
      scale_up_nthreads_limit: 32,
      scale_down_nempty_trigger: 4,
      size_limit: Math.min(100, e.MAX_BATCH_RUNS),
      size_limit_bytes: Math.min(20 * 1024 * 1024, e.MAX_BODY_BYTES),
    },
    instance_flags: {
      dataset_examples_multipart_enabled: true,
      examples_multipart_enabled: true,
      gzip_body_enabled: true,
      zstd_compression_enabled: true,
      search_enabled: true,
      // The v2 run, trace and thread queries are served beside the classic ones (the client's "dual" backend).
      sdb_query_enabled: true,
    },
    limits: {
      max_body_bytes: e.MAX_BODY_BYTES,
      max_decompressed_bytes: e.MAX_DECOMPRESSED_BYTES,
      max_runs_per_request: e.MAX_BATCH_RUNS,
    },
  };
}
