"use client";

import Link from "next/link";
import { signIn, useSession } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTRPCClient } from "@/app/trpc-client";
import styles from "./auth.module.css";
import { signInErrorText } from "./sign-in-errors";
import { SsoButton } from "./sso-button";

interface Props {
  mode: "signin" | "signup";
  /** A same-site path to open afterwards. */
  callbackUrl: string | null;
  /** An invitation token from an invite link: accepted right after signing in. */
  invite: string | null;
  /** The OIDC provider's button, and whether passwords are turned off (SSO_ONLY); null without SSO. */
  sso: { name: string; only: boolean } | null;
  /** An error code next-auth sent back in `?error=`. */
  error: string | null;
  /** Back from single sign-on with an invitation (`?sso=1`): accept it at once. */
  acceptAfterSso: boolean;
}

export function AuthForm({ mode, callbackUrl, invite, sso, error: errorCode, acceptAfterSso }: Props) {
  const router = useRouter();
  const trpc = useTRPCClient();
  const { status } = useSession();
  const accepting = useRef(false);

  async function acceptInvite(token: string): Promise<string> {
    const accepted = await trpc.account.acceptInvite.mutate({ token }).catch((e: Error) => {
      throw new Error(`Signed in, but the invitation could not be accepted: ${e.message}`);
    });
    return `/o/${accepted.workspace_id}/projects`;
  }

  /** Signs in through next-auth; accepts a pending invitation; answers where to go next. */
  async function signInAndContinue(email: string, password: string): Promise<string> {
    const result = await signIn("credentials", { email, password, redirect: false });
    if (!result || result.error) {
      throw new Error(result?.error === "SsoOnly" ? signInErrorText("SsoOnly", sso?.name ?? "SSO")! : "Wrong e-mail or password.");
    }
    return invite ? acceptInvite(invite) : "/";
  }

  const [error, setError] = useState<string | null>(signInErrorText(errorCode, sso?.name ?? "SSO"));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!invite || !acceptAfterSso || status !== "authenticated" || accepting.current) return;
    accepting.current = true;
    setBusy(true);
    acceptInvite(invite).then(
      (next) => router.replace(next),
      (e: Error) => {
        setError(e.message);
        setBusy(false);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the session appears
  }, [invite, acceptAfterSso, status]);

  const signup = mode === "signup";
  const passwords = !sso?.only;
  const ssoCallback = invite ? `/signin?${new URLSearchParams({ invite, sso: "1" })}` : (callbackUrl ?? "/");
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
        <h1 className={styles.title}>{signup && passwords ? "Create your account" : "Sign in"}</h1>
        <p className={styles.subtitle}>
          {!passwords
            ? `Accounts are created at your first sign-in with ${sso?.name}.`
            : signup
              ? "Your workspace is ready as soon as you sign up."
              : "Welcome back."}
        </p>
        {invite && (
          <div className={styles.notice}>
            {passwords
              ? `You were invited to a workspace: ${signup ? "sign up" : "sign in"} with the invited e-mail to join it.`
              : `You were invited to a workspace: sign in with ${sso?.name}, as the invited e-mail address, to join it.`}
          </div>
        )}
        {signup && !passwords && !invite && <div className={styles.notice}>Sign-up with a password is turned off on this deployment.</div>}
        {error && (
          <div className={styles.error} role="alert">
            {error}
          </div>
        )}
        {sso && <SsoButton name={sso.name} callbackUrl={ssoCallback} primary={!passwords} />}
        {sso && passwords && <div className={styles.divider}>or</div>}
        {passwords && (
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
        )}
        {passwords && (
          <div className={styles.footer}>
            {signup ? "Already have an account? " : "New to Tracelight? "}
            <Link href={other}>{signup ? "Sign in" : "Create an account"}</Link>
          </div>
        )}
      </div>
    </main>
  );
}
