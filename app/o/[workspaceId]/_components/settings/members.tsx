"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime } from "../format";
import { ErrorState, LoadingState } from "../ui";
import styles from "./settings.module.css";

type Role = "admin" | "member" | "viewer" | "annotator";
const ROLES: Role[] = ["admin", "member", "viewer", "annotator"];

function Invites({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invites = useQuery(trpc.settings.members.invites.queryOptions({ workspaceId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.settings.members.invites.queryKey({ workspaceId }) });
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [link, setLink] = useState<string | null>(null);
  const invite = useMutation(
    trpc.settings.members.invite.mutationOptions({
      onSuccess: (made) => {
        setLink(`${window.location.origin}${made.accept_path}`);
        setEmail("");
        refresh();
      },
    }),
  );
  const cancel = useMutation(trpc.settings.members.cancelInvite.mutationOptions({ onSuccess: refresh }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ workspaceId, invite: { email, role } });
  };
  const pending = invites.data ?? [];
  return (
    <div className="col">
      <form className={styles.inlineForm} onSubmit={submit}>
        <input
          className="input grow"
          type="email"
          placeholder="colleague@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-label="E-mail to invite"
          required
        />
        <select className="select" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-label="Role">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <button type="submit" className="btn" disabled={invite.isPending}>
          Invite
        </button>
      </form>
      {invite.error && (
        <div className="err-text" role="alert">
          {invite.error.message}
        </div>
      )}
      {link && (
        <div className={styles.secret} role="status">
          <strong>Send this link to the person you invited (shown once):</strong>
          <code className={styles.secretValue}>{link}</code>
        </div>
      )}
      {pending.length > 0 && (
        <ul className={styles.plainList}>
          {pending.map((i) => (
            <li key={i.id} className="row">
              <span>{i.email}</span>
              <span className="badge">{i.role}</span>
              <span className="faint" title={formatExactTime(i.expires_at)} data-testid="invite-expiry">
                expires {relativeTime(i.expires_at)}
              </span>
              <span className="grow" />
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => cancel.mutate({ workspaceId, id: i.id })}>
                Cancel
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Members({ workspaceId, role }: { workspaceId: string; role: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.settings.members.list.queryOptions({ workspaceId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.settings.members.list.queryKey({ workspaceId }) });
  const setRole = useMutation(trpc.settings.members.setRole.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.settings.members.remove.mutationOptions({ onSuccess: refresh }));
  const admin = role === "admin";
  return (
    <section className={styles.section} aria-labelledby="members-title">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="members-title">Members</h2>
          <p className="muted">Admins manage keys, members and prices; members read and write; viewers only read.</p>
        </div>
      </div>
      {admin && <Invites workspaceId={workspaceId} />}
      {members.isPending ? (
        <LoadingState />
      ) : members.error ? (
        <ErrorState error={members.error} retry={() => members.refetch()} />
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="members">
            <thead>
              <tr>
                <th>E-mail</th>
                <th>Name</th>
                <th>Role</th>
                <th>Joined</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {members.data.map((m) => (
                <tr key={m.user_id}>
                  <td>{m.email}</td>
                  <td>{m.name ?? <span className="faint">–</span>}</td>
                  <td>
                    {admin ? (
                      <select
                        className="select"
                        value={m.role}
                        aria-label={`Role of ${m.email}`}
                        onChange={(e) => setRole.mutate({ workspaceId, userId: m.user_id, change: { role: e.target.value as Role } })}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td title={formatExactTime(String(m.joined_at))}>{relativeTime(String(m.joined_at))}</td>
                  <td className="num">
                    {admin && (
                      <button
                        type="button"
                        className="btn btn-sm btn-ghost btn-danger"
                        onClick={() => {
                          if (confirm(`Remove ${m.email} from this workspace?`)) remove.mutate({ workspaceId, userId: m.user_id });
                        }}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(setRole.error || remove.error) && (
        <div className="err-text" role="alert">
          {(setRole.error ?? remove.error)!.message}
        </div>
      )}
    </section>
  );
}
