import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import type { Server } from "node:http";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { freePort } from "./server";

/** The claims an account at the test provider releases (beside `sub`, its login). */
export interface OidcAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

/** Changes an ID token's claims before the provider's own key signs it again (see `tamper`). */
export type IdTokenTamper = (claims: Record<string, unknown>) => Record<string, unknown>;

export interface OidcProviderHarness {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A second client registered at the same provider (a token for it is not one for Tracelight). */
  otherClientId: string;
  /** Accounts by login: sign in at the provider's login page with the login and any password. */
  accounts: Map<string, OidcAccount>;
  /** Code challenges the provider received with authorization requests (PKCE is required there). */
  codeChallenges: string[];
  /**
   * When set, the token endpoint's ID tokens are rewritten by this function and signed again with
   * the provider's signing key, as a provider (or someone holding its key) issuing that token would.
   */
  tamper: IdTokenTamper | null;
  /** OIDC_* settings for a Tracelight server pointed at this provider. */
  env: (extra?: Record<string, string>) => Record<string, string>;
  stop: () => Promise<void>;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A compact JWS (RS256) over `claims`, with the provider's key and key id. */
function signIdToken(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const input = `${b64url({ alg: "RS256", typ: "JWT", kid })}.${b64url(claims)}`;
  return `${input}.${sign("sha256", Buffer.from(input), key).toString("base64url")}`;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback: discovery, JWKS,
 * authorization with its development login page (any password), token endpoint. One confidential
 * client is registered for Tracelight's callback URLs, with PKCE required; consent is implied for
 * it (a first-party application), so the login page is the only interaction.
 */
export async function startOidcProvider(options: { redirectUris: string[] }): Promise<OidcProviderHarness> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = `test-${randomBytes(4).toString("hex")}`;
  const jwk = { ...privateKey.export({ format: "jwk" }), kid, use: "sig", alg: "RS256" };
  const clientId = "tracelight";
  const clientSecret = randomBytes(24).toString("base64url");
  const otherClientId = "another-app";
  const accounts = new Map<string, OidcAccount>();
  const codeChallenges: string[] = [];

  const provider = new Provider(issuer, {
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris, response_types: ["code"] },
      { client_id: otherClientId, client_secret: randomBytes(24).toString("base64url"), redirect_uris: ["http://127.0.0.1:9/cb"] },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    // Claims of the granted scopes go into the ID token (where next-auth reads them), not only /userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined;
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, result } = ctx.oidc;
      const existing = result?.consent?.grantId || session?.grantIdFor(client!.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: client!.clientId, accountId: session!.accountId });
      grant.addOIDCScope("openid email profile groups");
      await grant.save();
      return grant;
    },
  });

  const harness: OidcProviderHarness = {
    issuer,
    clientId,
    clientSecret,
    otherClientId,
    accounts,
    codeChallenges,
    tamper: null,
    env: (extra = {}) => ({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, ...extra }),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  provider.use(async (ctx, next) => {
    if (ctx.path === "/auth" && typeof ctx.query.code_challenge === "string") codeChallenges.push(ctx.query.code_challenge);
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === "/token" && harness.tamper && typeof body?.id_token === "string") {
      const claims = JSON.parse(Buffer.from(body.id_token.split(".")[1]!, "base64url").toString("utf8"));
      body.id_token = signIdToken(harness.tamper(claims), privateKey, kid);
    }
  });

  const server: Server = await new Promise((resolve) => {
    const listening = provider.listen(port, "127.0.0.1", () => resolve(listening));
  });
  return harness;
}

/** A cookie jar per origin, as a browser keeps one per site. */
class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  header(url: string): string {
    return [...(this.jars.get(new URL(url).host) ?? [])].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  keep(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || !value) jar.delete(pair.slice(0, eq).trim());
      else jar.set(pair.slice(0, eq).trim(), value);
    }
  }

  of(url: string): Map<string, string> {
    return this.jars.get(new URL(url).host) ?? new Map();
  }
}

export interface HttpSsoResult {
  /** Where Tracelight sent the browser at the end: the callback URL, or `/signin?error=<code>`. */
  location: string;
  /** Tracelight's cookies afterwards (the session cookie when signed in). */
  cookies: Map<string, string>;
}

/**
 * The OAuth flow a browser goes through, in plain HTTP: next-auth's CSRF token, the sign-in POST
 * (which sets the state and PKCE cookies and answers the provider's authorization URL), the
 * provider's login form submitted with `login`, the redirects back to Tracelight's callback, and
 * the callback's own redirect.
 */
export async function ssoSignInOverHttp(
  serverUrl: string,
  login: string,
  callbackUrl = `${serverUrl}/`,
  /** Changes the provider's redirect to Tracelight's callback (a forged or replayed answer). */
  alterCallback?: (url: URL) => void,
): Promise<HttpSsoResult> {
  const jar = new CookieJar();
  const get = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie: jar.header(url) } });
    jar.keep(url, response);
    return response;
  };
  const csrf = await get(`${serverUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const start = await get(`${serverUrl}/api/auth/signin/oidc`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl, json: "true" }),
  });
  let url = ((await start.json()) as { url: string }).url;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(serverUrl) && !url.startsWith(`${serverUrl}/api/auth/`)) {
      return { location: url, cookies: jar.of(serverUrl) };
    }
    if (alterCallback && url.startsWith(`${serverUrl}/api/auth/callback/`)) {
      const altered = new URL(url);
      alterCallback(altered);
      url = altered.toString();
      alterCallback = undefined;
    }
    const response = await get(url);
    const next = response.headers.get("location");
    if (next) {
      url = new URL(next, url).toString();
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || !html.includes('name="login"'))
      throw new Error(`No redirect and no login form at ${url} (${response.status}): ${html.slice(0, 300)}`);
    const submitted = await get(new URL(action, url).toString(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ prompt: "login", login, password: "any-password" }),
    });
    url = new URL(submitted.headers.get("location") ?? "", url).toString();
  }
  throw new Error("Too many redirects in the sign-in flow");
}
