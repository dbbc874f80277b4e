import { methodNotAllowed } from "@/server/http/not-found";
import { serveDirectly } from "@/server/http/direct";
import { route } from "@/server/http/route";
import { batchReply } from "@/server/ingest/batch-reply";
import { batchBody } from "@/server/ingest/schema";
import { ingestBatch } from "@/server/ingest/service";

/** 202, 207 or 422 with `errors` naming each refused run: see batchReply. */
export const POST = route({
  answers: {
    contentType: "application/json",
    description:
      "202 `{}` when every run was stored; 207 with `errors` naming each refused run when the others were stored; 422 when none was.",
  },
  access: "write",
  ingest: true,
  body: batchBody,
  handler: async ({ ctx, body }) => batchReply(await ingestBatch(ctx.sql, ctx.workspaceId, body)),
});

serveDirectly("POST", "/api/v1/runs/batch", POST);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
