/**
 * Editing a dataset in Debian's Chromium: a dataset made from a CSV file, an example edited (bad
 * JSON refused with the reason), added and deleted, the version tagged and read back, a split
 * filter, and the export the browser downloads.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("datasets-ui@example.com");

test("a dataset from CSV, edited, versioned, filtered and exported in the browser", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  await page.goto(`${server.url}/o/${user.workspaceId}/datasets`);
  await page.getByRole("button", { name: "From CSV" }).click();
  const form = page.locator('[data-testid="csv-upload"]');
  await form.locator('input[type="file"]').setInputFiles({
    name: "trivia.csv",
    mimeType: "text/csv",
    buffer: Buffer.from('question,answer\n"What is 2+2?",4\nCapital of France?,Paris\n'),
  });
  await form.getByLabel("Column answer").waitFor();
  assert.equal(await form.getByLabel("Column answer").inputValue(), "output", "the last column defaults to the reference output");
  await form.getByRole("button", { name: "Create from CSV" }).click();
  await page.waitForURL(/\/datasets\/[0-9a-f-]{36}$/, { waitUntil: "commit" });
  await page.locator('[data-testid="dataset-name"]', { hasText: "trivia" }).waitFor();
  const rows = page.locator('[data-testid="examples"] tbody tr');
  await rows.nth(1).waitFor();

  // Edit the first example: invalid JSON is refused with the reason, then a fixed one is saved.
  await rows.filter({ hasText: "2+2" }).click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = page.locator('[data-testid="example-editor"]');
  const [inputs, outputs] = [editor.locator("textarea").nth(0), editor.locator("textarea").nth(1)];
  await inputs.fill('{"question": "What is 2+2?",}');
  assert.match((await editor.getByRole("alert").textContent()) ?? "", /^Inputs: /);
  assert.ok(await editor.getByRole("button", { name: "Save" }).isDisabled());
  await inputs.fill('{"question": "What is 2+3?"}');
  await outputs.fill('{"answer": "5"}');
  await editor.locator('input[list="dataset-splits"]').fill("test");
  await editor.getByRole("button", { name: "Save" }).click();
  await rows.filter({ hasText: "2+3" }).waitFor();
  await shot("dataset-edit");

  // Add one, tag this version, then delete the added example.
  await page.getByRole("button", { name: "Add example" }).click();
  await editor.locator("textarea").nth(0).fill('{"question": "Largest ocean?"}');
  await editor.locator("textarea").nth(1).fill('{"answer": "Pacific"}');
  await editor.getByRole("button", { name: "Add example" }).click();
  await rows.filter({ hasText: "Largest ocean" }).waitFor();
  await page.getByLabel("Tag").fill("v1");
  await page.getByRole("button", { name: "Tag latest version" }).click();
  await page.getByLabel("Tag").and(page.locator('[value=""]')).waitFor();
  await rows.filter({ hasText: "Largest ocean" }).click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await editor.getByRole("button", { name: "Delete…" }).click();
  await editor.getByRole("button", { name: "Delete", exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="examples"]')?.textContent?.includes("Largest ocean"));
  assert.equal(await rows.count(), 2);

  // The tagged version still has it, read-only.
  const version = page.getByLabel("Version");
  const tagged = await version.locator("option", { hasText: "v1" }).getAttribute("value");
  await version.selectOption(tagged!);
  await rows.filter({ hasText: "Largest ocean" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Add example" }).count(), 0, "an earlier version is read-only");
  await version.selectOption("");
  await page.waitForFunction(() => !document.querySelector('[data-testid="examples"]')?.textContent?.includes("Largest ocean"));

  // Split filter and export.
  await page.locator('[data-testid="examples-toolbar"] select').first().selectOption("test");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="examples"] tbody tr').length === 1);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const csv = await readFile((await download.path())!, "utf8");
  assert.match(csv, /^id,inputs\.question,outputs\.answer,split\r\n/);
  assert.match(csv, /What is 2\+3\?,5,test/);
  assert.equal(csv.trim().split("\r\n").length, 2, "the export follows the split filter");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForTimeout(250);
  await shot("dataset-edit-dark", "dark");
  await page.emulateMedia({ colorScheme: "light" });
  assert.deepEqual(dialogs, []);
});
