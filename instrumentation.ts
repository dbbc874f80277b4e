/** Next.js calls this once when the server starts: check the configuration, then start up (server/startup.ts). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("./server/startup");
  boot();
}
