import { z } from "zod";
import { uuid } from "@/server/core/uuid";
import { reply, route } from "@/server/http/route";
import { methodNotAllowed } from "@/server/http/not-found";
import { readThreadShare, shareThread, unshareThread, wireThreadShare } from "@/server/sharing/service";

/** A thread is named by its project and its id (the application's own string). */
const inProject = z.looseObject({ project_id: uuid });

/** Shares the thread (`client.threads.share.create`): a public link to its traces. */
export const POST = route({
  access: "write",
  body: inProject,
  response: wireThreadShare,
  handler: ({ ctx, params, body }) => shareThread(ctx.sql, ctx.workspaceId, body.project_id, params.threadId),
});

/** The thread's active link (`client.threads.share.retrieve`); `{}` when it is not shared. */
export const GET = route({
  access: "read",
  query: inProject,
  response: wireThreadShare,
  handler: ({ ctx, params, query }) => readThreadShare(ctx.sql, ctx.workspaceId, query.project_id, params.threadId),
});

/** Stops sharing the thread (`client.threads.share.delete`, the project in the query); 204 whether or not it was shared. */
export const DELETE = route({
  answers: { contentType: "application/json", description: "204 No Content once the share link is revoked." },
  access: "write",
  query: inProject,
  handler: async ({ ctx, params, query }) => {
    await unshareThread(ctx.sql, ctx.workspaceId, query.project_id, params.threadId);
    return reply(204, null);
  },
});

export const { PUT, PATCH } = methodNotAllowed("GET", "POST", "DELETE");
