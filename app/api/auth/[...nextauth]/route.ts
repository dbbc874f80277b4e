import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/next-auth";

// Without NEXTAUTH_URL, next-auth takes its own address from the request's Host header.
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
