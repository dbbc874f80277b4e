import { recordSignInAttempt } from "./sign-in-audit";
import type { Account, Profile, User as AuthUser } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { getSql } from "../db/client";
import { env } from "../env";
import { signInWithOidc, SsoRefusal } from "./sso";

/** next-auth's id for the provider: its callback is `/api/auth/callback/oidc`. */
export const OIDC_PROVIDER_ID = "oidc";

type Claims = Record<string, unknown> & { sub?: string };

/**
 * The deployment's OpenID Connect provider, from OIDC_* (null when single sign-on is not set up).
 * Endpoints and keys come from the issuer's discovery document; the ID token is checked by
 * openid-client (signature from the provider's JWKS, issuer, audience = our client id, expiry)
 * and the claims are read from it. The authorization request carries PKCE and state, both checked.
 */
export function oidcProvider(): OAuthConfig<Claims> | null {
  const e = env();
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET) return null;
  return {
    id: OIDC_PROVIDER_ID,
    name: e.OIDC_NAME,
    type: "oauth",
    wellKnown: `${e.OIDC_ISSUER.replace(/\/+$/, "")}/.well-known/openid-configuration`,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: e.OIDC_SCOPES } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (claims) => ({ id: String(claims.sub), email: typeof claims.email === "string" ? claims.email : null }),
  };
}

/**
 * next-auth's signIn callback for the OIDC provider: finds, links or provisions the account, and
 * swaps the provider's subject for our user id (the JWT's `sub`). A refusal throws its code, which
 * next-auth sends to the sign-in page as `?error=<code>`; anything else is logged and shown there as
 * a generic failure, so no internal message reaches the address bar.
 */
export async function oidcSignIn({ user, account, profile }: { user: AuthUser; account: Account | null; profile?: Profile }) {
  if (account?.provider !== OIDC_PROVIDER_ID) return true;
  const claims = (profile ?? {}) as Claims;
  try {
    const signedIn = await signInWithOidc(await getSql(), { issuer: String(claims.iss), subject: String(claims.sub), claims });
    user.id = signedIn.userId;
    user.email = signedIn.email;
    user.name = signedIn.name;
    return true;
  } catch (error) {
    const reason = error instanceof SsoRefusal ? error.code : "SsoFailed";
    if (!(error instanceof SsoRefusal)) console.error("Single sign-on failed:", error);
    await recordSignInAttempt({
      email: typeof claims.email === "string" ? claims.email : "",
      provider: OIDC_PROVIDER_ID,
      ok: false,
      reason,
    });
    throw new Error(reason);
  }
}

/** What the sign-in and sign-up pages show: the provider's button, and whether passwords are off. */
export function ssoPageSettings(): { name: string; only: boolean } | null {
  const e = env();
  return e.OIDC_ISSUER ? { name: e.OIDC_NAME, only: e.SSO_ONLY } : null;
}
