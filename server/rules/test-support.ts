import { after, before } from "node:test";
import { createServer, type Server } from "node:http";
import { createWorkspace } from "../auth/workspaces";
import { AppError } from "../core/errors";
import type { Sql } from "../db/client";
import { resetEnv } from "../env";
import { storeProject } from "../feedback/test-runs";

// What the rule test files share: the workspaces they start from, a status matcher and a webhook receiver.

/** The rule tests' workspace with a project, and another workspace that must not see it. */
export async function ruleWorkspaces(db: Sql): Promise<{ ws: string; other: string; project: string }> {
  const ws = (await createWorkspace(db.prisma, "rules tests")).id;
  const other = (await createWorkspace(db.prisma, "other")).id;
  return { ws, other, project: await storeProject(db, ws) };
}

/** For assert.rejects: an AppError (or a client error) with this status. */
export const status = (code: number) => (error: unknown) =>
  (error instanceof AppError && error.status === code) || (error as { clientStatus?: number }).clientStatus === code;

export interface Delivery {
  path: string;
  // The tests read the body's fields by name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  raw: string;
  headers: Record<string, unknown>;
}

/**
 * A local webhook receiver for a rule test file, listening from before its tests until after them,
 * with private egress allowed and quick retries. `failures` holds paths that answer 503, and how
 * many more times (then 204).
 */
export function ruleWebhookReceiver(): { url: string; received: Delivery[]; failures: Map<string, number> } {
  const hooks = { url: "", received: [] as Delivery[], failures: new Map<string, number>() };
  let receiver: Server;
  before(async () => {
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    process.env.RULE_RETRY_BASE_MS = "20";
    resetEnv();
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        hooks.received.push({ path: req.url!, body: JSON.parse(body), raw: body, headers: req.headers });
        const left = hooks.failures.get(req.url!) ?? 0;
        hooks.failures.set(req.url!, left - 1);
        res.writeHead(left > 0 ? 503 : 204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    hooks.url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  });
  after(async () => {
    delete process.env.RULE_RETRY_BASE_MS;
    resetEnv();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });
  return hooks;
}
