import { notFound, redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { authOptions } from "@/server/auth/next-auth";
import { membership } from "@/server/auth/users";
import { getSql } from "@/server/db/client";
import { readRun } from "@/server/runs/read";

/** The `app_path` the runs API hands out (LangSmith's URL shape) opens the run inside its trace. */
export default async function RunLink({ params }: { params: Promise<{ workspaceId: string; projectId: string; runId: string }> }) {
  const { workspaceId, runId } = await params;
  const session = await getServerSession(authOptions);
  const db = await getSql();
  if (!session?.user?.id || !(await membership(db, session.user.id, workspaceId))) notFound();
  const run = await readRun(db, workspaceId, runId);
  if (!run) notFound();
  redirect(`/o/${workspaceId}/projects/${run.session_id}/traces/${run.trace_id}?run=${runId}`);
}
