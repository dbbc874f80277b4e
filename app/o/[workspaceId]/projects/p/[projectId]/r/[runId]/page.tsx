import { notFound, redirect } from "next/navigation";
import { orNotFound, serverTrpc } from "@/app/_trpc/server";

/** The `app_path` the runs API hands out (LangSmith's URL shape) opens the run inside its trace. */
export default async function RunLink({ params }: { params: Promise<{ workspaceId: string; projectId: string; runId: string }> }) {
  const { workspaceId, runId } = await params;
  const { userId, api } = await serverTrpc();
  if (!userId) notFound();
  const run = await orNotFound(api.runs.get({ workspaceId, runId }));
  redirect(`/o/${workspaceId}/projects/${run.session_id}/traces/${run.trace_id}?run=${runId}`);
}
