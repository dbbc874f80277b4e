import { AsyncLocalStorage } from "node:async_hooks";

/** Who is acting, and from where: the caller's address as the front resolved it (core/client-ip.ts). */
export interface AuditActor {
  kind: "user" | "api_key" | "anonymous" | "system";
  id: string | null;
  label?: string | null;
  ip: string | null;
}

const current = new AsyncLocalStorage<AuditActor>();

/**
 * Runs `work` with its actor known to recordAudit, so a service records who did what without every
 * use case passing the caller down. The REST route factory and the tRPC workspace procedures wrap
 * their handlers in it; next-auth's route wraps sign-in with the address only.
 */
export const withAuditActor = <T>(actor: AuditActor, work: () => T): T => current.run(actor, work);

/** The acting caller, or the background ("system") when no request is being answered. */
export const currentActor = (): AuditActor => current.getStore() ?? { kind: "system", id: null, ip: null };

/** The actor of a caller identity: a key is named by its id (and its owner's user id is not the actor). */
export function actorOf(caller: { kind: "api_key" | "user"; userId?: string; apiKeyId?: string } | null, ip: string): AuditActor {
  if (!caller) return { kind: "anonymous", id: null, ip };
  if (caller.kind === "api_key") return { kind: "api_key", id: caller.apiKeyId ?? null, ip };
  return { kind: "user", id: caller.userId ?? null, ip };
}
