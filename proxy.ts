import { NextResponse, type NextRequest } from "next/server";
import { CORS_HEADERS } from "./server/http/cors";

/** The UI's pages (everything else that reaches here is the API). */
const PAGES = /^\/($|o\/|o$|signin|signup|new-workspace|docs\/|share\/|public\/[^/]+\/[rd]$)/;

/**
 * A page may run only the scripts Next.js renders into it with this request's nonce: a trace's
 * content shown on the page can never add one. Styles stay inline-capable (charts set style
 * attributes); images may come from anywhere a conversation links to over https.
 */
function pageSecurity(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * Pages get a per-request CSP nonce (Next.js reads it from the request's CSP header and puts it on
 * its own scripts); API preflights are answered here. (Bodies declared over the limit never get
 * here: scripts/serve.mjs refuses them before Next reads them.)
 */
export function proxy(request: NextRequest) {
  if (PAGES.test(request.nextUrl.pathname)) {
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
    const policy = pageSecurity(nonce);
    const headers = new Headers(request.headers);
    headers.set("content-security-policy", policy);
    const response = NextResponse.next({ request: { headers } });
    response.headers.set("content-security-policy", policy);
    return response;
  }
  if (request.method === "OPTIONS") return new NextResponse(null, { status: 204, headers: CORS_HEADERS });
  return NextResponse.next();
}

/**
 * Only requests without a body come here (pages, preflights): Next.js copies the body of every
 * request a proxy sees into memory, so API writes (a 100 MB attachment, say) bypass it and stream
 * straight to their route.
 */
export const config = {
  matcher: [
    {
      source: "/((?!_next/|favicon.ico|api/auth|api/trpc).*)",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};
