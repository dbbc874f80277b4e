/**
 * Alerts in Debian's Chromium: a rule made on a project's Alerts tab fires on the project's error
 * rate, its recent values are drawn beside the threshold, a test notification reaches a local
 * receiver, the workspace's Alerts page lists it; the evaluators page shows spend against limits.
 * Screenshots in light and dark.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { after, before, test } from "node:test";
import { Client } from "langsmith";
import { call } from "../harness/http";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("alerts@example.com", { env: { ALLOW_PRIVATE_EGRESS: "1", ALERTS_INTERVAL_MS: "1000" } });
let receiver: Server;
let hookUrl: string;
const received: { event?: string }[] = [];
before(async () => {
  receiver = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      received.push(JSON.parse(raw));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});
after(() => receiver?.close());

test(
  "an alert made on a project's Alerts tab fires, charts its metric beside the threshold, and sends a test",
  { skip: noChromium },
  async () => {
    const { server, page, user, shot } = suite;
    const apiKey = await createKeyInBrowser(page, user);
    const client = new Client({ apiUrl: server.url, apiKey, autoBatchTracing: false });
    // Three hours of traffic whose error rate climbs.
    for (let i = 0; i < 60; i++) {
      const start = Date.now() - 3 * 3_600_000 + i * 180_000;
      await client.createRun({
        id: randomUUID(),
        name: "checkout",
        run_type: "chain",
        project_name: "shop",
        inputs: { i },
        error: i % 10 < Math.floor(i / 10) ? "payment declined" : undefined,
        outputs: { ok: true },
        start_time: start,
        end_time: start + 300,
      });
    }
    const project = await client.readProject({ projectName: "shop" });

    await page.goto(`${server.url}/o/${user.workspaceId}/projects/${project.id}`);
    await page.getByTestId("project-alerts").click();
    await page.getByText("No alerts yet").waitFor();
    await page.getByTestId("new-alert").click();
    const form = page.getByRole("form", { name: "New alert" });
    await form.getByLabel("Alert name").fill("checkout errors");
    await form.getByLabel("Threshold").fill("20");
    await form.getByLabel("Window in minutes").fill("60");
    await form.getByLabel("Destination", { exact: true }).selectOption("webhook");
    await form.getByLabel("Destination URL").fill(hookUrl);
    await form.getByLabel("Signing secret").fill("a-signing-secret");
    await shot("alerts-new");
    await form.getByRole("button", { name: "Create alert" }).click();

    const detail = page.getByTestId("alert-detail");
    await detail.getByTestId("alert-state").filter({ hasText: "Firing" }).waitFor({ timeout: 30_000 });
    await detail.getByTestId("alert-chart").locator(".recharts-line").waitFor();
    await detail.getByTestId("alert-history").getByText("fired", { exact: true }).waitFor({ timeout: 30_000 });
    await detail.getByRole("button", { name: "Send a test notification" }).click();
    await detail.getByText(/Sent to 1 destination/).waitFor();
    assert.ok(received.some((r) => r.event === "alert.test"));
    assert.ok(received.some((r) => r.event === "alert.fired"));
    await shot("alerts-project");
    await shot("alerts-project-dark", "dark");

    await page.goto(`${server.url}/o/${user.workspaceId}/alerts`);
    await page.getByRole("listitem").filter({ hasText: "checkout errors" }).waitFor();
    await page.getByTestId("alert-chart").waitFor();
    await shot("alerts-workspace");
    await shot("alerts-workspace-dark", "dark");

    const api = { url: server.url, apiKey };
    assert.equal((await call(api, "PUT", "/spend-limits", { target: "evaluators", limit_usd: 20, window: "monthly" })).status, 200);
    await page.goto(`${server.url}/o/${user.workspaceId}/evaluators`);
    await page.getByTestId("spend-limits").getByTestId("spend-meter").waitFor();
    const playground = page
      .getByTestId("spend-limits")
      .locator("div")
      .filter({ hasText: /^Playground/ })
      .first();
    await playground.getByRole("button", { name: "Edit limit" }).click();
    await page.getByLabel("Limit in dollars").fill("5");
    await page.getByRole("button", { name: "Set limit" }).click();
    await page.getByTestId("spend-limits").getByTestId("spend-meter").nth(1).waitFor();
    await shot("alerts-spend-limits");
    await shot("alerts-spend-limits-dark", "dark");
  },
);
