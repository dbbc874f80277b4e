import { bootstrapFirstWorkspace } from "./auth/workspaces";
import { startBillingDrain } from "./billing/drain";
import { database } from "./db/client";
import { isDatabaseUnavailable } from "./db/outage";
import { env } from "./env";
import { startJobs, stopJobs } from "./jobs/queue";
import "./background";

const RETRY_MS = 2_000;

/**
 * The server's start: a configuration that cannot be used safely (no secrets with DATABASE_URL, a
 * published default) stops the process; then start-up runs in the background, so that while the
 * database is unreachable the server is up and answers 503 with Retry-After.
 */
export function boot(): void {
  try {
    env();
  } catch (error) {
    console.error(`Tracelight cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  startUp().catch((error) => {
    console.error("Tracelight could not start:", error);
    process.exit(1);
  });
}

/**
 * Starts up, waiting for the database when it is not reachable yet (requests are answered 503
 * meanwhile): one line when waiting starts, one when it ends. Any other failure is thrown.
 */
export async function startUp(): Promise<void> {
  for (let waitingSince: number | null = null; ;) {
    try {
      await startOnce();
      if (waitingSince) console.log(`The database is reachable after ${((Date.now() - waitingSince) / 1000).toFixed(0)} s.`);
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (!waitingSince) {
        waitingSince = Date.now();
        console.error(
          `The database is not reachable (${error instanceof Error ? error.message : String(error)}); retrying every ${RETRY_MS / 1000} s, answering 503 meanwhile.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/** Migrates the database and, on a fresh one, creates and prints the first workspace and API key. */
async function startOnce(): Promise<void> {
  const db = await database();
  startBillingDrain(db.sql);
  await startJobs(db.sql);
  // scripts/serve.mjs calls this on SIGTERM once in-flight requests are answered.
  (globalThis as { tracelightShutdown?: () => Promise<void> }).tracelightShutdown = async () => {
    await stopJobs();
    await db.close();
  };
  const first = await bootstrapFirstWorkspace(db.sql);
  const port = env().PORT;
  const base = env().PUBLIC_URL ?? `http://localhost:${port}`;
  if (!first) {
    console.log(`Tracelight is ready: web UI and API at ${base}`);
    return;
  }
  console.log(
    [
      "",
      "Tracelight is ready. A first workspace and API key were created; the key is shown only now:",
      `  TRACELIGHT_WORKSPACE_ID=${first.workspace.id}`,
      `  TRACELIGHT_API_KEY=${first.key}`,
      "Point the langsmith SDK at it:",
      `  export LANGSMITH_ENDPOINT=${base}`,
      `  export LANGSMITH_API_KEY=${first.key}`,
      "  export LANGSMITH_TRACING=true",
      "Or any OpenTelemetry exporter:",
      `  export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${base}/otel/v1/traces`,
      `  export OTEL_EXPORTER_OTLP_HEADERS=x-api-key=${first.key}`,
      `Open the web UI at ${base} and sign up: the first account joins this workspace as its admin.`,
      `Region: ${env().REGION}. Database: ${env().DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded, in ${env().DATA_DIR}/pg`}.`,
      "",
    ].join("\n"),
  );
}
