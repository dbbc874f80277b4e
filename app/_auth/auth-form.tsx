"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPCClient } from "@/app/trpc-client";
import styles from "./auth.module.css";

interface Props {
  mode: "signin" | "signup";
  /** A same-site path to open afterwards. */
  callbackUrl: string | null;
  /** An invitation token from an invite link: accepted right after signing in. */
  invite: string | null;
}

export function AuthForm({ mode, callbackUrl, invite }: Props) {
  const router = useRouter();
  const trpc = useTRPCClient();

  /** Signs in through next-auth; accepts a pending invitation; answers where to go next. */
  async function signInAndContinue(email: string, password: string): Promise<string> {
    const result = await signIn("credentials", { email, password, redirect: false });
    if (!result || result.error) throw new Error("Wrong e-mail or password.");
    if (!invite) return "/";
    const accepted = await trpc.account.acceptInvite.mutate({ token: invite }).catch((e: Error) => {
      throw new Error(`Signed in, but the invitation could not be accepted: ${e.message}`);
    });
    return `/o/${accepted.workspace_id}/projects`;
  }

  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signup = mode === "signup";
  const query = new URLSearchParams();
  if (callbackUrl) query.set("callbackUrl", callbackUrl);
  if (invite) query.set("invite", invite);
  const other = `${signup ? "/signin" : "/signup"}${query.size ? `?${query}` : ""}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    try {
      if (signup) await trpc.account.signUp.mutate({ email, password, name: String(form.get("name") ?? "") || null });
      const next = await signInAndContinue(email, password);
      router.replace(invite ? next : (callbackUrl ?? next));
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }

  return (
    <main className={styles.screen}>
      <div className={styles.card}>
        <div className={styles.brand}>
          <span className={styles.mark}>T</span>Tracelight
        </div>
        <h1 className={styles.title}>{signup ? "Create your account" : "Sign in"}</h1>
        <p className={styles.subtitle}>{signup ? "Your workspace is ready as soon as you sign up." : "Welcome back."}</p>
        {invite && (
          <div className={styles.notice}>
            You were invited to a workspace: {signup ? "sign up" : "sign in"} with the invited e-mail to join it.
          </div>
        )}
        {error && (
          <div className={styles.error} role="alert">
            {error}
          </div>
        )}
        <form className={styles.form} onSubmit={submit}>
          {signup && (
            <label className={styles.field}>
              Name
              <input className="input" name="name" autoComplete="name" maxLength={200} />
            </label>
          )}
          <label className={styles.field}>
            E-mail
            <input className="input" name="email" type="email" autoComplete="email" required autoFocus />
          </label>
          <label className={styles.field}>
            Password
            <input
              className="input"
              name="password"
              type="password"
              autoComplete={signup ? "new-password" : "current-password"}
              minLength={signup ? 8 : undefined}
              required
            />
          </label>
          <button className={`btn btn-primary ${styles.submit}`} type="submit" disabled={busy}>
            {busy ? "Please wait…" : signup ? "Sign up" : "Sign in"}
          </button>
        </form>
        <div className={styles.footer}>
          {signup ? "Already have an account? " : "New to Tracelight? "}
          <Link href={other}>{signup ? "Sign in" : "Create an account"}</Link>
        </div>
      </div>
    </main>
  );
}
