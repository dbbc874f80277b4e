/** Next.js calls this once when the server starts: migrate, and create the first workspace. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startUp } = await import("./server/startup");
  await startUp();
}
