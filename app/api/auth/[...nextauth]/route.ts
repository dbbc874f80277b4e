import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/next-auth";
import { withAuditActor } from "@/server/audit/actor";
import { clientIp } from "@/server/core/client-ip";

// Without NEXTAUTH_URL, next-auth takes its own address from the request's Host header.
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

const nextAuth = NextAuth(authOptions);

/** The caller's address (as the front resolved it) is known to the sign-in's audit entries (server/audit). */
const handler = (request: Request, context: unknown) =>
  withAuditActor({ kind: "anonymous", id: null, ip: clientIp(request.headers) }, () => nextAuth(request, context));

export { handler as GET, handler as POST };
