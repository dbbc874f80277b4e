import type { Role } from "./api-keys";
import { role as roleSchema } from "./schema";

/** Strongest first: when several of a user's groups map to roles, the first of these wins. */
const STRENGTH = ["admin", "member", "annotator", "viewer"] as const;
type SsoRole = (typeof STRENGTH)[number];

/** A role name from the configuration, if this deployment's roles include it (`annotator` may not). */
const supported = (name: SsoRole): Role | null => ((roleSchema.options as readonly string[]).includes(name) ? (name as Role) : null);

export interface RoleMapping {
  /** The ID token claim that lists the user's groups; unset: groups are not read. */
  claim?: string;
  map: { group: string; role: SsoRole }[];
  /** The role when no group matches (or groups are not read). */
  fallback: SsoRole;
}

/** The groups in a claim: an array of strings, or one string (some providers send a single group so). */
export function groupsOf(claims: Record<string, unknown>, claim: string | undefined): string[] | null {
  if (!claim) return null;
  const value = claims[claim];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  return [];
}

/**
 * The role single sign-on grants: the strongest role a group maps to, else the fallback. A role
 * this deployment does not have is skipped (a mapping to it grants nothing; a fallback to it is
 * viewer), so a configuration written for a later version cannot widen access.
 */
export function roleFromGroups(groups: string[] | null, mapping: RoleMapping): Role {
  const held = new Set(groups ?? []);
  const granted = mapping.map.filter((m) => held.has(m.group) && supported(m.role)).map((m) => m.role);
  const strongest = STRENGTH.find((r) => granted.includes(r));
  return (strongest && supported(strongest)) ?? supported(mapping.fallback) ?? "viewer";
}
