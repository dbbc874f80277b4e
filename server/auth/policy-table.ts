import { ACTION_MEANING, ACTIONS, POLICY, ROLE_MEANING, ROLES } from "./policy";

/** The policy as the Markdown table docs/access.md shows (checked by policy.test.ts, so the two never drift). */
export function policyTable(): string {
  const head = `| Action | ${ROLES.join(" | ")} | What it covers |`;
  const rule = `|---|${ROLES.map(() => ":-:").join("|")}|---|`;
  const rows = ACTIONS.map(
    (a) => `| \`${a}\` | ${ROLES.map((r) => (POLICY[a].includes(r) ? "✓" : "—")).join(" | ")} | ${ACTION_MEANING[a]} |`,
  );
  const roles = ROLES.map((r) => `- **${r}**: ${ROLE_MEANING[r]}.`);
  return [head, rule, ...rows, "", ...roles].join("\n");
}
