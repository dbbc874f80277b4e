import { NextResponse, type NextRequest } from "next/server";
import { CORS_HEADERS } from "./server/http/cors";

/** Answers CORS preflights for the API; everything else goes straight to its route. */
export function proxy(request: NextRequest) {
  if (request.method === "OPTIONS") return new NextResponse(null, { status: 204, headers: CORS_HEADERS });
  return NextResponse.next();
}

export const config = {
  matcher: ["/api/v1/:path*", "/((?!o/|_next/|signin|signup|api/auth|api/trpc).*)"],
};
