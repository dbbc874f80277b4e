"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import styles from "./auth.module.css";

/** "Sign in with <provider>": next-auth's OIDC flow, back to `callbackUrl` afterwards. */
export function SsoButton({ name, callbackUrl, primary }: { name: string; callbackUrl: string; primary: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={`btn ${primary ? "btn-primary" : ""} ${styles.submit} ${styles.sso}`}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void signIn("oidc", { callbackUrl });
      }}
    >
      <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6">
        <rect x="3" y="7" width="10" height="7" rx="1.5" />
        <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
      </svg>
      {busy ? "Redirecting…" : `Sign in with ${name}`}
    </button>
  );
}
