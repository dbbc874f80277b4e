/**
 * Password guessing: after MAX_FAILURES wrong passwords for one e-mail from one address within
 * WINDOW_MS, further attempts from there are refused until the window ends (in memory, per instance).
 * Keyed by e-mail and address, so an attacker elsewhere cannot lock the owner out.
 */
export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;

const failures = new Map<string, { count: number; resetAt: number }>();

const keyOf = (email: string, ip: string) => `${email.trim().toLowerCase()}|${ip}`;

export function signInBlocked(email: string, ip: string, now = Date.now()): boolean {
  const entry = failures.get(keyOf(email, ip));
  if (!entry || entry.resetAt <= now) return false;
  return entry.count >= MAX_FAILURES;
}

export function recordSignIn(email: string, ip: string, ok: boolean, now = Date.now()): void {
  const key = keyOf(email, ip);
  if (ok) {
    failures.delete(key);
    return;
  }
  if (failures.size > 50_000) for (const [k, v] of failures) if (v.resetAt <= now) failures.delete(k);
  const entry = failures.get(key);
  if (!entry || entry.resetAt <= now) failures.set(key, { count: 1, resetAt: now + WINDOW_MS });
  else entry.count += 1;
}
