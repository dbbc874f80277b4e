import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { z } from "zod";
import {
  sessionCreate,
  sessionDeleteQuery,
  sessionFilterFromWire,
  sessionListQuery,
  upsertQuery,
  wireDeleted,
  wireProject,
  wireProjectWithStats,
} from "@/server/sessions/schema";
import { createSession, deleteSessions, listSessions } from "@/server/sessions/service";

export const GET = route({
  access: "read",
  query: sessionListQuery,
  response: z.array(wireProjectWithStats),
  handler: ({ ctx, query }) => listSessions(ctx.sql, ctx.workspaceId, sessionFilterFromWire(query)),
});

export const POST = route({
  access: "write",
  body: sessionCreate,
  query: upsertQuery,
  response: wireProject,
  handler: ({ ctx, body, query }) => createSession(ctx.sql, ctx.workspaceId, body, query.upsert),
});

export const DELETE = route({
  access: "write",
  query: sessionDeleteQuery,
  response: wireDeleted,
  handler: ({ ctx, query }) => deleteSessions(ctx.sql, ctx.workspaceId, query.session_ids ?? []),
});

export const { PUT, PATCH } = methodNotAllowed("GET", "POST", "DELETE");
