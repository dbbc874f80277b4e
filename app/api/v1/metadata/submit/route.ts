import { methodNotAllowed } from "@/server/http/not-found";
import { reply, route } from "@/server/http/route";
import { metadataSubmit } from "@/server/beacon/schema";
import { readReport, submitMetadata } from "@/server/beacon/service";

export const POST = route({
  access: "public",
  handler: async ({ ctx, request }) => reply(202, await submitMetadata(ctx.sql, ctx.ip, await readReport(request, metadataSubmit))),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
