import { methodNotAllowed } from "@/server/http/not-found";
import { serveDirectly } from "@/server/http/direct";
import { route } from "@/server/http/route";
import { batchReply } from "@/server/ingest/batch-reply";
import { readMultipartIngest } from "@/server/ingest/multipart";
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
  body: "multipart",
  handler: async ({ ctx, body }) => {
    const input = await readMultipartIngest(body);
    return batchReply(await ingestBatch(ctx.sql, ctx.workspaceId, input), !!input.feedback?.length);
  },
});

serveDirectly("POST", "/api/v1/runs/multipart", POST);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
