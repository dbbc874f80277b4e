import { call, type CallResult } from "./http";

/** A signed-in browser: next-auth cookies kept between requests, x-user-id sent with API calls. */
export interface Browser {
  url: string;
  cookies: Map<string, string>;
  userId: string;
  workspaceId: string;
}

function keepCookies(jar: Map<string, string>, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}

export const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** A call with no credentials at all. */
export const anonymous = (url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call({ url, apiKey: "" }, method, path, body, { "x-api-key": "", ...headers });

/** POST /auth/signup; throws unless 201. */
export async function signUp(
  url: string,
  email: string,
  password: string,
  name?: string,
): Promise<{ user_id: string; workspace_id: string }> {
  const response = await anonymous(url, "POST", "/auth/signup", { email, password, name });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** next-auth's credentials sign-in as a browser does it: CSRF token and cookie, then the callback. */
export async function signIn(
  url: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Map<string, string>> {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${url}/api/auth/csrf`, { headers });
  keepCookies(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(jar) },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  keepCookies(jar, response);
  return jar;
}

/** Signs a new user up and in. */
export async function newUser(url: string, email: string, password: string, name?: string): Promise<Browser> {
  const created = await signUp(url, email, password, name);
  return { url, cookies: await signIn(url, email, password), userId: created.user_id, workspaceId: created.workspace_id };
}

/** An API call from the signed-in browser: session cookie plus x-user-id. */
export function ui<T = any>(
  browser: Browser,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<CallResult<T>> {
  return anonymous(browser.url, method, path, body, { cookie: cookieHeader(browser.cookies), "x-user-id": browser.userId, ...headers });
}

/** A personal API key of a new user in a workspace of their own (signed up and in over HTTP): "another workspace". */
export async function otherWorkspaceKey(url: string, description: string): Promise<string> {
  const other = await newUser(url, `other-${crypto.randomUUID().slice(0, 8)}@example.com`, "other-password-1", "Other");
  const key = await ui(other, "POST", "/api-key", { description });
  if (key.status !== 201) throw new Error(`no key for the other workspace: ${key.status} ${JSON.stringify(key.body)}`);
  return key.body.key as string;
}
