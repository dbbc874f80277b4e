import { methodNotAllowed } from "@/server/http/not-found";
import { route, reply } from "@/server/http/route";
import { readMultipartIngest } from "@/server/ingest/multipart";
import { ingestBatch } from "@/server/ingest/service";

/** 202 when every run was stored; 207 with `errors` naming each refused run (the others were stored). */
export const POST = route({
  access: "write",
  ingest: true,
  body: "multipart",
  handler: async ({ ctx, body }) => {
    const { rejected } = await ingestBatch(ctx.sql, ctx.workspaceId, await readMultipartIngest(body));
    return rejected.length ? reply(207, { errors: rejected }) : reply(202, {});
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
