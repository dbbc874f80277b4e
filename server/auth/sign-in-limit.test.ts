import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_FAILURES, WINDOW_MS, recordSignIn, signInBlocked } from "./sign-in-limit";

test("sign-in attempts: blocked after the failures limit per e-mail and address, until the window ends", () => {
  const t0 = 1_000_000;
  for (let i = 0; i < MAX_FAILURES; i++) {
    assert.equal(signInBlocked("Eve@example.com", "10.0.0.1", t0), false);
    recordSignIn("eve@example.com", "10.0.0.1", false, t0);
  }
  assert.equal(signInBlocked("EVE@example.com", "10.0.0.1", t0 + 1), true);
  assert.equal(signInBlocked("eve@example.com", "10.0.0.2", t0 + 1), false, "another address is not blocked");
  assert.equal(signInBlocked("ada@example.com", "10.0.0.1", t0 + 1), false, "another e-mail is not blocked");
  assert.equal(signInBlocked("eve@example.com", "10.0.0.1", t0 + WINDOW_MS), false, "the window ends");
});

test("a successful sign-in clears the failures", () => {
  for (let i = 0; i < MAX_FAILURES - 1; i++) recordSignIn("bob@example.com", "ip", false, 5);
  recordSignIn("bob@example.com", "ip", true, 6);
  recordSignIn("bob@example.com", "ip", false, 7);
  assert.equal(signInBlocked("bob@example.com", "ip", 8), false);
});
