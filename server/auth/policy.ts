import { forbidden } from "../core/errors";

/**
 * The one access policy: what each role of a workspace may do. The REST route factory
 * (server/http/route.ts), the tRPC procedures (server/trpc/init.ts) and the services that decide
 * per object (an annotator's assigned queues) all ask `mayDo`/`assertMay`, so a role means the same
 * everywhere and a refusal reads the same everywhere. docs/access.md's table is checked against
 * `POLICY` by server/auth/policy.test.ts.
 */
export const ROLES = ["admin", "member", "viewer", "annotator"] as const;
export type Role = (typeof ROLES)[number];

/** What a route or procedure needs. `public` needs no identity at all and is not a role's action. */
export const ACTIONS = ["read", "feedback", "review", "write", "admin"] as const;
export type Action = (typeof ACTIONS)[number];

export const ACTION_MEANING: Record<Action, string> = {
  read: "read the workspace's data: runs, traces, projects, datasets, queues, settings",
  feedback: "leave, change and delete feedback on runs",
  review: "review the runs of annotation queues (annotators: only the queues they are assigned to)",
  write: "change the workspace's data: ingest runs, projects, datasets, prompts, rules, evaluators, queues",
  admin: "administer the workspace: members, invites, roles, service keys, model connections, prices, audit log",
};

export const ROLE_MEANING: Record<Role, string> = {
  admin: "everything, including members, keys, connections and the audit log",
  member: "reads and changes data",
  viewer: "reads only",
  annotator: "reads, leaves feedback and reviews the annotation queues it is assigned to",
};

/** Actions × roles. */
export const POLICY: Record<Action, readonly Role[]> = {
  read: ["admin", "member", "viewer", "annotator"],
  feedback: ["admin", "member", "annotator"],
  review: ["admin", "member", "annotator"],
  write: ["admin", "member"],
  admin: ["admin"],
};

export const mayDo = (role: Role, action: Action): boolean => POLICY[action].includes(role);

const CAN: Record<Role, string> = {
  admin: "it can do everything",
  member: "it can read and change data but not administer the workspace",
  viewer: "it can read but not change data",
  annotator: "it can read, leave feedback and review the annotation queues it is assigned to, but not change anything else",
};

/** The one refusal message: the caller's role, what it can do, and what it tried. */
export function refusal(role: Role, action: Action): string {
  if (action === "admin") return `Only workspace admins can do this: your role in this workspace is ${role}.`;
  return `Your role in this workspace is ${role}: ${CAN[role]}.`;
}

/** Throws the policy's 403 unless `role` may do `action`. */
export function assertMay(role: Role, action: Action): void {
  if (!mayDo(role, action)) throw forbidden(refusal(role, action));
}

/**
 * Whether this caller may review queue `queueId`: admins and members review any queue, an
 * annotator only the queues it is assigned to (`assigned`: the queue's reviewer user ids); a
 * queue reviewed `onlyAssigned` (reviewer_access_mode "assigned") is reviewed by those alone.
 */
export function assertMayReviewQueue(role: Role, userId: string | undefined, assigned: readonly string[], onlyAssigned = false): void {
  assertMay(role, "review");
  const isAssigned = !!userId && assigned.includes(userId);
  if (role === "annotator" && !isAssigned) {
    throw forbidden(`Your role in this workspace is annotator: ${CAN.annotator}; this queue is not assigned to you.`);
  }
  if (onlyAssigned && !isAssigned) {
    throw forbidden(
      `This queue is reviewed only by its assigned reviewers (reviewer_access_mode "assigned") and you are not one of them${userId ? "" : " (a service key is no person)"}.`,
    );
  }
}
