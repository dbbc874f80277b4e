import { NextResponse, type NextRequest } from "next/server";
import { env } from "./server/env";
import { CORS_HEADERS } from "./server/http/cors";

/**
 * Answers CORS preflights for the API, and refuses a body whose declared size is over the limit at
 * once (before anything waits for it to arrive); everything else goes straight to its route.
 */
export function proxy(request: NextRequest) {
  if (request.method === "OPTIONS") return new NextResponse(null, { status: 204, headers: CORS_HEADERS });
  const declared = Number(request.headers.get("content-length") ?? 0);
  const limit = env().MAX_BODY_BYTES;
  if (declared > limit) {
    return NextResponse.json(
      { detail: `Request body is ${declared} bytes; the limit is ${limit} bytes (MAX_BODY_BYTES).` },
      { status: 413, headers: { ...CORS_HEADERS, Connection: "close" } },
    );
  }
  return NextResponse.next();
}

export const config = {
  matcher: ["/api/v1/:path*", "/((?!o/|_next/|signin|signup|api/auth|api/trpc).*)"],
};
