import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { badRequest, notFound } from "@/server/core/errors";
import { ingestRuns } from "@/server/ingest/service";
import { wireRun } from "@/server/ingest/schema";
import { readRun } from "@/server/runs/read";
import { runDetail } from "@/server/runs/serialize";

export const PATCH = route({
  access: "write",
  ingest: true,
  status: 202,
  body: wireRun,
  response: z.object({ message: z.string() }),
  handler: async ({ ctx, body, params }) => {
    if (body.id && body.id !== params.runId)
      throw badRequest(`The body's id ${body.id} differs from the run id in the path (${params.runId}).`);
    await ingestRuns(ctx.sql, ctx.workspaceId, { patch: [{ ...body, id: params.runId }] });
    return { message: "Run updated" };
  },
});

export const GET = route({
  access: "read",
  response: runDetail,
  handler: async ({ ctx, params }) => {
    const run = await readRun(ctx.sql, ctx.workspaceId, params.runId);
    if (!run) throw notFound(`Run ${params.runId} not found.`);
    return run;
  },
});

export const { POST, PUT, DELETE } = methodNotAllowed("GET", "PATCH");
