import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { serveDirectly } from "@/server/http/direct";
import { route } from "@/server/http/route";
import { ingestRuns } from "@/server/ingest/service";
import { wireRun } from "@/server/ingest/schema";

export const POST = route({
  access: "write",
  ingest: true,
  status: 202,
  body: wireRun,
  response: z.object({ message: z.string() }),
  handler: async ({ ctx, body }) => {
    await ingestRuns(ctx.sql, ctx.workspaceId, { post: [body] });
    return { message: "Run created" };
  },
});

serveDirectly("POST", "/api/v1/runs", POST);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
