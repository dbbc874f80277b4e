/** Next.js calls this once when the server starts: check the configuration, then start up. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./server/env");
  try {
    env();
  } catch (error) {
    // A server that cannot be configured safely does not start (no default secrets, for one).
    console.error(`Tracelight cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { startUp } = await import("./server/startup");
  // Not awaited: while the database is unreachable the server is up and answers 503 (Retry-After).
  startUp().catch((error) => {
    console.error("Tracelight could not start:", error);
    process.exit(1);
  });
}
