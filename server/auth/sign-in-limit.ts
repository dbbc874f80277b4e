import { createHash } from "node:crypto";
import { counterStore } from "../ratelimit";
import type { CounterStore } from "../ratelimit/store";

/**
 * Password guessing: after MAX_FAILURES wrong passwords for one e-mail from one address within
 * WINDOW_MS, further attempts from there are refused until the window ends. Keyed by e-mail and
 * address (the address as scripts/serve.mjs resolved it, so a forged X-Forwarded-For is not a new
 * address), so an attacker elsewhere cannot lock the owner out. Counted in Redis when REDIS_URL is
 * set, so every instance sees the same failures; the key is a digest, never the e-mail itself.
 */
export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;

const keyOf = (email: string, ip: string) =>
  `signin:${createHash("sha256").update(`${email.trim().toLowerCase()}\n${ip}`).digest("base64url").slice(0, 22)}`;

export async function signInBlocked(email: string, ip: string, store: CounterStore = counterStore()): Promise<boolean> {
  return (await store.peek(keyOf(email, ip))) >= MAX_FAILURES;
}

export async function recordSignIn(email: string, ip: string, ok: boolean, store: CounterStore = counterStore()): Promise<void> {
  if (ok) return store.reset(keyOf(email, ip));
  await store.consume([{ key: keyOf(email, ip), limit: MAX_FAILURES, windowMs: WINDOW_MS }]);
}
