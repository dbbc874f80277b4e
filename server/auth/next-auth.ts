import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getSql } from "../db/client";
import { env } from "../env";
import { clientIp } from "../core/client-ip";
import { oidcProvider, oidcSignIn } from "./oidc";
import { recordSignIn, signInBlocked } from "./sign-in-limit";
import { verifyPassword } from "./users";
import { recordSignInAttempt } from "./sign-in-audit";

/** Sessions last this long; a signed-in user's JWT is re-issued as it is used. */
const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

/**
 * next-auth for the UI: e-mail + password against the users table, and single sign-on through the
 * OIDC provider when configured (server/auth/oidc.ts); JWT sessions in an HttpOnly cookie.
 * `session.user.id` is the user's id; the UI sends it as `x-user-id` next to the cookie. Errors
 * land on the sign-in page as `?error=<code>`, which it words.
 */
export const authOptions: NextAuthOptions = {
  secret: env().NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/signin", error: "/signin" },
  providers: [
    CredentialsProvider({
      name: "E-mail and password",
      credentials: {
        email: { label: "E-mail", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        const email = credentials?.email?.trim();
        const password = credentials?.password;
        if (env().SSO_ONLY) throw new Error("SsoOnly");
        if (!email || !password) return null;
        const ip = clientIp(req?.headers);
        if (await signInBlocked(email, ip)) {
          await recordSignInAttempt({ email, provider: "credentials", ok: false, reason: "locked_out", ip });
          return null;
        }
        const user = await verifyPassword(await getSql(), email, password);
        await recordSignIn(email, ip, user !== null);
        await recordSignInAttempt({ email, userId: user?.id, provider: "credentials", ok: user !== null, ip });
        return user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    }),
    ...[oidcProvider()].filter((p) => p !== null),
  ],
  events: {
    // Password sign-ins are recorded in `authorize`, with their failures; this records the others (OIDC).
    async signIn({ user, account }) {
      if (account?.provider && account.provider !== "credentials" && user.email)
        await recordSignInAttempt({ email: user.email, provider: account.provider, ok: true });
    },
  },
  callbacks: {
    signIn: oidcSignIn,
    jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) session.user.id = token.sub;
      return session;
    },
  },
};
