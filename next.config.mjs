/**
 * The REST tree lives under app/api/v1. The contract's root paths (/info, /runs/..., /otel/v1/traces,
 * /v1/platform/...) are rewritten onto it, so `{base}/runs/x` and `{base}/api/v1/runs/x` are the same.
 */
export const API_ROOTS = [
  "info",
  "runs",
  "otel",
  "feedback",
  "sessions",
  "datasets",
  "examples",
  "repos",
  "commits",
  "likes",
  "settings",
  "public",
  "generate",
  "auth",
  "charts",
  "workspaces",
  "api-key",
  "feedback-configs",
  "usage",
  "internal",
  "members",
  "audit-logs",
  "model-prices",
  "annotation-queues",
  "model-connections",
  "prompt-webhooks",
  "playground",
  "views",
  "alerts",
  "spend-limits",
];

/**
 * The app path a request path is rewritten to (the rewrites below, as a function): scripts/serve.mjs
 * labels /metrics by the app route that answers, whichever alias the caller used.
 */
export function rewrittenPath(pathname) {
  const share = /^\/public\/([^/]+)\/(r|d)$/.exec(pathname);
  if (share) return `/share/${share[1]}/${share[2]}`;
  const root = pathname.split("/")[1];
  if (API_ROOTS.includes(root)) return `/api/v1${pathname}`;
  if (root === "v1" || root === "v2") return `/api${pathname}`;
  if (pathname.startsWith("/api/v1/v1/")) return `/api${pathname.slice("/api/v1".length)}`;
  if (pathname.endsWith("/v1/metadata/submit")) return "/api/v1/metadata/submit";
  return pathname;
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  distDir: process.env.NEXT_DIST_DIR || ".next",
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "libpg-query",
    "prom-client",
    "@prisma/adapter-pg",
    "fzstd",
    "protobufjs",
    "gpt-tokenizer",
    "ioredis",
    "pg-boss",
    "pyodide",
  ],
  // Every answer: no type sniffing, no full URLs leaked to other sites. Pages add a CSP (proxy.ts),
  // attachments a sandbox (server/blobs/headers.ts).
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
  async rewrites() {
    return {
      beforeFiles: [
        // The SDKs' share links (shareRun → /public/{token}/r, shareDataset → /d) are pages, not API calls.
        { source: "/public/:token/:view(r|d)", destination: "/share/:token/:view" },
        { source: `/:root(${API_ROOTS.join("|")})`, destination: "/api/v1/:root" },
        { source: `/:root(${API_ROOTS.join("|")})/:path*`, destination: "/api/v1/:root/:path*" },
        { source: "/v1/:path*", destination: "/api/v1/:path*" },
        { source: "/v2/:path*", destination: "/api/v2/:path*" },
        { source: "/api/v1/v1/:path*", destination: "/api/v1/:path*" },
        { source: "/:prefix*/v1/metadata/submit", destination: "/api/v1/metadata/submit" },
      ],
    };
  },
};

export default nextConfig;
