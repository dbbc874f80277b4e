import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { listSessionsV2, sessionListV2 } from "@/server/sessions/v2";
import { cursorPage } from "@/server/core/offset-cursor";
import { wireProjectWithStats } from "@/server/sessions/schema";

/** The workspace's projects and experiments, a page at a time (`client.sessions.listV2`). */
export const GET = route({
  access: "read",
  query: sessionListV2,
  response: cursorPage(wireProjectWithStats.extend({ type: z.enum(["PROJECT", "EXPERIMENT"]) })),
  handler: ({ ctx, query }) => listSessionsV2(ctx.sql, ctx.workspaceId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
