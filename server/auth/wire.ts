import { z } from "zod";
import { ROLES } from "./policy";

/** The answers of the account routes (`/api-key`, `/members`, `/workspaces`, `/auth`), checked by the route factory. */

const role = z.enum(ROLES);

/** A key as listed: never its secret, only the prefix that lets a person recognise it. */
export const wireApiKey = z.object({
  id: z.string(),
  short_key: z.string(),
  prefix: z.string(),
  description: z.string(),
  kind: z.enum(["service", "personal"]),
  role,
  user_id: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});

/** A key just made: the one answer that holds the plain key. */
export const wireNewApiKey = wireApiKey.extend({ key: z.string() });

export const wireMember = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role,
  joined_at: z.string(),
});
export type WireMember = z.infer<typeof wireMember>;

/** An open invitation, as listed (never its token). */
export const wireInvite = z.object({ id: z.string(), email: z.string(), role, created_at: z.string(), expires_at: z.string() });

/** An invitation just made: the token is in this answer once. */
export const wireNewInvite = z.object({
  id: z.string(),
  email: z.string(),
  role,
  token: z.string(),
  accept_path: z.string(),
  expires_at: z.string(),
});

export const wireAccepted = z.object({ workspace_id: z.string(), role });

/** A workspace as its member sees it, with their role. */
export const wireWorkspace = z.object({ id: z.string(), name: z.string(), role, region: z.string(), created_at: z.string() });

const callerBase = {
  workspace_id: z.string().nullable(),
  workspace_name: z.string().nullable(),
  region: z.string().nullable(),
  role: role.nullable(),
  user_id: z.string().nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
};

/** GET /auth: who is calling, in which workspace, with which role. */
export const wireCaller = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("api_key"), ...callerBase, api_key_id: z.string(), key_kind: z.string().nullable() }),
  z.object({ kind: z.literal("user"), ...callerBase, workspaces: z.array(z.object({ id: z.string(), name: z.string(), role })) }),
]);

export const wireSignedUp = z.object({ user_id: z.string(), workspace_id: z.string() });
