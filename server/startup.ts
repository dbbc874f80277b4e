import { bootstrapFirstWorkspace } from "./auth/workspaces";
import { startBillingDrain } from "./billing/drain";
import { database } from "./db/client";
import { env } from "./env";

/** Migrates the database and, on a fresh one, creates and prints the first workspace and API key. */
export async function startUp(): Promise<void> {
  const db = await database();
  startBillingDrain(db.sql);
  const first = await bootstrapFirstWorkspace(db.sql);
  const port = process.env.PORT ?? "1984";
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
