import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, before } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startServer, type RunningServer } from "../harness/server";
import { desktopPage, launchBrowser, signUpInBrowser, type UiUser } from "./harness";

/** A browser suite's test option: skipped, with the reason, where Debian's Chromium is missing. */
export const noChromium = existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium") ? false : "no Chromium";
const SHOTS = path.join(process.cwd(), "e2e", "screenshots");

export interface SignedInSuite {
  server: RunningServer;
  browser: Browser;
  page: Page;
  user: UiUser;
  /** Dialogs the pages opened (content must never open one). */
  dialogs: string[];
  /** Saves `e2e/screenshots/b-<name>.png` of the page as it is, or in dark mode (after the 0.1 s colour transitions). */
  shot: (name: string, scheme?: "dark") => Promise<void>;
}

/** A fresh server and a signed-in Chromium page for one test file (`before`/`after` registered here). */
export function signedInSuite(email: string, serverOptions: Parameters<typeof startServer>[0] = {}): SignedInSuite {
  const suite = { dialogs: [] as string[] } as SignedInSuite;
  before(async () => {
    if (noChromium) return;
    await mkdir(SHOTS, { recursive: true });
    suite.server = await startServer(serverOptions);
    suite.browser = await launchBrowser();
    suite.page = await desktopPage(suite.browser, suite.dialogs);
    suite.user = await signUpInBrowser(suite.page, suite.server, email);
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  suite.shot = async (name, scheme) => {
    if (scheme) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      await suite.page.waitForTimeout(250);
    }
    await suite.page.screenshot({ path: path.join(SHOTS, `b-${name}.png`) });
    if (scheme) await suite.page.emulateMedia({ colorScheme: "light" });
  };
  return suite;
}

/** Console errors and uncaught exceptions the page shows from now on (the tests expect none). */
export function watchConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") seen.push(m.text());
  });
  page.on("pageerror", (e) => seen.push(e.message));
  return seen;
}

/** A REST call with an API key, as an SDK makes it: the status and the JSON answer (null when none). */
export async function restCall(baseUrl: string, apiKey: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}
