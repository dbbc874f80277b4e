/**
 * The Prompts area in Debian's Chromium: prompts, agents and skills pushed with the real langsmith
 * client share the list, each agent and skill with its kind's badge, and the kind filter narrows it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "langsmith";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("hub@example.com");

test("prompts, agents and skills in one list with a kind badge and filter", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const client = new Client({ apiUrl: server.url, apiKey: await createKeyInBrowser(page, user) });
  await client.pushPrompt("support-answer", {
    object: { lc: 1, type: "constructor", id: ["langchain", "prompts", "chat", "ChatPromptTemplate"], kwargs: {} },
    description: "Answers support questions",
  });
  await client.pushAgent("triage-agent", {
    files: { "AGENTS.md": { type: "file", content: "# Triage\n" }, "tools.json": { type: "file", content: "{}" } },
    description: "Routes tickets to a team",
  });
  await client.pushSkill("refund-policy", {
    files: { "SKILL.md": { type: "file", content: "# Refunds\n" } },
    description: "How refunds are decided",
  });

  await page.goto(`${server.url}/o/${user.workspaceId}/prompts`);
  const rows = page.getByTestId("prompts").locator("tbody tr");
  await rows.nth(2).waitFor();
  assert.equal(await rows.count(), 3);
  const badges = await page.getByTestId("repo-kind").allTextContents();
  assert.deepEqual(badges.sort(), ["agent", "skill"]);
  await shot("prompts-kinds");
  await shot("prompts-kinds-dark", "dark");

  const kinds = page.getByRole("group", { name: "Kind" });
  /** The list shows exactly this one repo (the previous page stays up while the next one loads). */
  const onlyRow = (name: string) =>
    page.waitForFunction((n) => {
      const shown = [...document.querySelectorAll('[data-testid="prompts"] tbody tr a')].map((a) => a.textContent);
      return shown.length === 1 && shown[0] === n;
    }, name);
  await kinds.getByRole("button", { name: "Agents" }).click();
  await onlyRow("triage-agent");
  await kinds.getByRole("button", { name: "Skills" }).click();
  await onlyRow("refund-policy");
  await kinds.getByRole("button", { name: "Prompts" }).click();
  await onlyRow("support-answer");
  await kinds.getByRole("button", { name: "All" }).click();
  await rows.nth(2).waitFor();

  await page.getByRole("link", { name: "triage-agent" }).click();
  await page.getByTestId("prompt-commits").waitFor();
  assert.equal(await page.getByTestId("repo-kind").textContent(), "agent");
  assert.equal(await page.getByRole("link", { name: "Open in playground" }).count(), 0, "an agent is no playground prompt");
  await page.getByText("AGENTS.md").first().waitFor();
  await shot("agent-detail");
  await shot("agent-detail-dark", "dark");
  assert.deepEqual(dialogs, []);
});
