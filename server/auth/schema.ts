import { z } from "zod";
import { ROLES } from "./policy";

/** The roles a membership, an invitation or a key may have (server/auth/policy.ts). */
export const role = z.enum(ROLES);
const email = z.string().trim().email("must be an e-mail address").max(254);

export const signUpBody = z.object({
  email,
  password: z.string().min(8, "must be at least 8 characters").max(200),
  name: z.string().trim().max(200).nullish(),
  workspace_name: z.string().trim().max(200).nullish(),
});

export const apiKeyCreate = z.object({
  description: z.string().trim().max(500).default(""),
  /** Omitted: a personal key for a signed-in user, a service key for an API-key caller. */
  kind: z.enum(["service", "personal"]).optional(),
  /** Service keys only (default admin); a personal key always takes its user's role. */
  role: role.optional(),
});

export const workspaceCreate = z.object({ name: z.string().trim().min(1, "must not be empty").max(200) });

export const inviteCreate = z.object({ email, role: role.default("member") });
export const memberPatch = z.object({ role });
export const inviteAccept = z.object({ token: z.string().trim().min(1, "must not be empty") });
