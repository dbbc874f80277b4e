"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPCClient } from "@/app/trpc-client";
import styles from "./auth.module.css";

/**
 * Creates a workspace for the signed-in user, who becomes its admin: offered from the workspace
 * switcher, and on its own to a user who belongs to no workspace (e.g. removed from the last one).
 */
export function CreateWorkspace({ email, hasWorkspaces = false }: { email: string; hasWorkspaces?: boolean }) {
  const router = useRouter();
  const trpc = useTRPCClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    setBusy(true);
    setError(null);
    try {
      const workspace = await trpc.workspaces.create.mutate({ name });
      router.replace(`/o/${workspace.id}/projects`);
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
        <h1 className={styles.title}>Create a workspace</h1>
        <p className={styles.subtitle}>
          {hasWorkspaces
            ? `Signed in as ${email}; you will be its admin.`
            : `Signed in as ${email}; you are not a member of any workspace yet.`}
        </p>
        {error && (
          <div className={styles.error} role="alert">
            {error}
          </div>
        )}
        <form className={styles.form} onSubmit={submit}>
          <label className={styles.field}>
            Workspace name
            <input className="input" name="name" required maxLength={200} autoFocus />
          </label>
          <button className={`btn btn-primary ${styles.submit}`} type="submit" disabled={busy}>
            {busy ? "Creating…" : "Create workspace"}
          </button>
        </form>
        {!hasWorkspaces && <div className={styles.footer}>Or ask an admin of an existing workspace to invite {email}.</div>}
      </div>
    </main>
  );
}
