import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { metadataSubmit } from "@/server/beacon/schema";
import { readReport, submitMetadata, wireStoredReport } from "@/server/beacon/service";

export const POST = route({
  access: "public",
  status: 202,
  response: wireStoredReport,
  handler: async ({ ctx, request }) => submitMetadata(ctx.sql, ctx.ip, await readReport(request, metadataSubmit)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
