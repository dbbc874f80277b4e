import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  /** `session.user.id` is the signed-in user's id (server/auth/next-auth.ts sets it). */
  interface Session {
    user: { id: string } & DefaultSession["user"];
  }
}
